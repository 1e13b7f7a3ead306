import { useEffect, useState } from "react";
import { useNavigate } from "../router";
import { useAccount } from "./account-context";
import type { DeviceSession } from "../device-session";
import { formatDate } from "../format";

/** 登录设备 on the profile: every signed-in device, 退出此设备 for the others, 退出所有设备. */
export function DeviceList() {
  const account = useAccount();
  const navigate = useNavigate();
  const [sessions, setSessions] = useState<DeviceSession[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void account.listSessions().then(({ sessions: list, error: failure }) => {
      if (!live) return;
      setSessions(list);
      setError(failure?.message ?? null);
    });
    return () => {
      live = false;
    };
  }, [account]);

  async function signOutDevice(id: string) {
    setBusy(id);
    const failure = await account.signOutSession(id);
    setBusy(null);
    if (failure) setError(failure.message);
    else setSessions((list) => list?.filter((s) => s.id !== id) ?? null);
  }

  async function signOutEverywhere() {
    setBusy("all");
    await account.signOut("global");
    void navigate("/", { replace: true });
  }

  return (
    <section className="home-section" aria-labelledby="devices-title">
      <h2 id="devices-title" className="section-title">
        登录设备
      </h2>
      {error ? (
        <p className="auth-error" role="alert">
          {error}
        </p>
      ) : null}
      {sessions ? (
        <ul className="device-list">
          {sessions.map((s) => (
            <li key={s.id} className="device-item">
              <div>
                <span className="device-name">{s.device}</span>
                {s.current ? <span className="device-current">当前设备</span> : null}
                <p className="device-meta">
                  {s.country ? `${s.country} · ` : ""}最近活动 {formatDate(s.lastSeenAt)} · 登录于 {formatDate(s.createdAt)}
                </p>
              </div>
              {s.current ? null : (
                <button type="button" className="button button-ghost" disabled={busy !== null} onClick={() => void signOutDevice(s.id)}>
                  退出此设备
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : error ? null : (
        <p className="muted">正在读取…</p>
      )}
      <div className="device-actions">
        <form
          method="post"
          action="/api/auth/sign-out"
          onSubmit={(e) => {
            e.preventDefault();
            void signOutEverywhere();
          }}
        >
          <input type="hidden" name="scope" value="global" />
          <button type="submit" className="button button-ghost" disabled={busy !== null}>
            退出所有设备
          </button>
        </form>
      </div>
    </section>
  );
}
