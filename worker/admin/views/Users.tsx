/** 用户管理: the accounts found by e-mail (a page at a time) and one account with its actions. */
import { STATE_NAMES, type AccountPage, type AccountSession, type AdminAccount } from "../../../shared/admin/accounts";
import { ROLE_NAMES } from "../../../shared/admin/roles";
import { countryName, deviceLabel } from "../../auth/device";
import { ConfirmForm, Notice } from "./Layout";

const shanghai = new Intl.DateTimeFormat("zh-CN", { timeZone: "Asia/Shanghai", dateStyle: "short", timeStyle: "short" });
const when = (iso: string | null) => (iso && !Number.isNaN(Date.parse(iso)) ? shanghai.format(Date.parse(iso)) : "—");
const roleText = (a: AdminAccount) => (a.role ? ROLE_NAMES[a.role] : "—");

function pageHref(query: string, page: number): string {
  const params = new URLSearchParams();
  if (query) params.set("q", query);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return `/admin/users${search ? `?${search}` : ""}`;
}

export function UsersScreen({ found, notice }: { found: AccountPage & { query: string }; notice?: string }) {
  const { accounts, total, page, pageCount, query } = found;
  return (
    <>
      <h1>用户管理</h1>
      {notice ? <Notice kind="ok">{notice}</Notice> : null}
      <form method="get" action="/admin/users" className="row panel" role="search">
        <div className="field">
          <label htmlFor="users-q">按邮箱查找</label>
          <input id="users-q" name="q" type="search" defaultValue={query} placeholder="邮箱或其中一部分" autoComplete="off" />
        </div>
        <div className="field">
          <button type="submit">查找</button>
        </div>
      </form>
      <section className="panel" aria-labelledby="users-title">
        <h2 id="users-title">{query ? `邮箱包含“${query}”的账号（${total}）` : `全部账号（${total}）`}</h2>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">邮箱</th>
                <th scope="col" className="nowrap">
                  状态
                </th>
                <th scope="col" className="nowrap">
                  角色
                </th>
                <th scope="col" className="nowrap wide-only">
                  注册时间
                </th>
                <th scope="col" className="nowrap wide-only">
                  最近登录
                </th>
                <th scope="col" className="nowrap wide-only">
                  设备
                </th>
              </tr>
            </thead>
            <tbody>
              {accounts.map((a) => (
                <tr key={a.id}>
                  <td>
                    <a href={`/admin/users/${a.id}`}>{a.email}</a>
                  </td>
                  <td className={`nowrap state-${a.state}`}>{STATE_NAMES[a.state]}</td>
                  <td className="nowrap">{roleText(a)}</td>
                  <td className="nowrap wide-only">{when(a.createdAt)}</td>
                  <td className="nowrap wide-only">{when(a.lastSignInAt)}</td>
                  <td className="nowrap wide-only">{a.knownDevices ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {accounts.length === 0 ? <p className="muted">没有找到账号。</p> : null}
        {pageCount > 1 ? (
          <nav className="pager" aria-label="分页">
            {page > 1 ? <a href={pageHref(query, page - 1)}>上一页</a> : <span />}
            <span className="muted">
              第 {page} / {pageCount} 页
            </span>
            {page < pageCount ? <a href={pageHref(query, page + 1)}>下一页</a> : <span />}
          </nav>
        ) : null}
      </section>
    </>
  );
}

export interface UserProps {
  account: AdminAccount;
  sessions: AccountSession[] | null;
  canSignOut: boolean;
  isSelf: boolean;
  /** The account's 弹幕 mute while it holds (弹幕管理): until when, "永久" for good; null: none. */
  mutedUntil?: string | null;
  ok?: string;
  error?: string;
}

export function UserScreen({ account, sessions, canSignOut, isSelf, mutedUntil = null, ok, error }: UserProps) {
  const disabled = account.state === "disabled";
  return (
    <>
      <p>
        <a href="/admin/users">← 用户管理</a>
      </p>
      <h1 className="break">{account.email}</h1>
      {ok ? <Notice kind="ok">{ok}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <section className="panel" aria-labelledby="account-title">
        <h2 id="account-title">账号</h2>
        <dl className="facts">
          <div>
            <dt>状态</dt>
            <dd className={`state-${account.state}`}>{STATE_NAMES[account.state]}</dd>
          </div>
          <div>
            <dt>角色</dt>
            <dd>
              {roleText(account)} · <a href={`/admin/roles?email=${encodeURIComponent(account.email)}`}>在角色管理中修改</a>
            </dd>
          </div>
          <div>
            <dt>注册时间</dt>
            <dd>{when(account.createdAt)}</dd>
          </div>
          <div>
            <dt>最近登录</dt>
            <dd>{when(account.lastSignInAt)}</dd>
          </div>
          <div>
            <dt>已知设备</dt>
            <dd>{account.knownDevices === null ? "—" : `${account.knownDevices} 台（近180天用密码登录过的浏览器）`}</dd>
          </div>
          <div>
            <dt>弹幕禁言</dt>
            <dd>
              {mutedUntil === null ? "未禁言" : `禁言至 ${mutedUntil}`} ·{" "}
              <a href={`/admin/danmaku/mutes?user=${encodeURIComponent(account.id)}`}>{mutedUntil === null ? "禁言" : "在弹幕管理中修改"}</a>
            </dd>
          </div>
        </dl>
      </section>
      <section className="panel" aria-labelledby="sessions-title">
        <h2 id="sessions-title">登录中的设备{sessions ? `（${sessions.length}）` : ""}</h2>
        {sessions === null ? (
          <p className="muted">Supabase 项目不提供会话列表。</p>
        ) : sessions.length === 0 ? (
          <p className="muted">没有登录中的设备。</p>
        ) : (
          <div className="table-wrap">
            <table className="stack-table">
              <thead>
                <tr>
                  <th scope="col">设备</th>
                  <th scope="col">地区</th>
                  <th scope="col">登录时间</th>
                  <th scope="col">最近活动</th>
                </tr>
              </thead>
              <tbody>
                {sessions.map((s, i) => (
                  <tr key={i}>
                    <td data-label="设备">{deviceLabel(s.userAgent)}</td>
                    <td data-label="地区">{countryName(s.country) ?? "—"}</td>
                    <td data-label="登录时间">{when(s.createdAt)}</td>
                    <td data-label="最近活动">{when(s.lastSeenAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="panel" aria-labelledby="actions-title">
        <h2 id="actions-title">操作</h2>
        {isSelf ? (
          <p className="muted">这是你自己的账号：不能在这里停用或删除。</p>
        ) : (
          <div className="actions">
            {disabled ? (
              <form method="post" action={`/admin/users/${account.id}/enable`}>
                <button type="submit">启用账号</button>
              </form>
            ) : (
              <ConfirmForm action={`/admin/users/${account.id}/disable`} confirm={`确定停用 ${account.email} 吗？该账号会立即退出所有设备，且无法再登录。`}>
                <button type="submit">停用账号</button>
              </ConfirmForm>
            )}
            {canSignOut ? (
              <ConfirmForm action={`/admin/users/${account.id}/sign-out`} confirm={`确定让 ${account.email} 退出所有设备吗？`}>
                <button type="submit" className="secondary">
                  强制退出所有设备
                </button>
              </ConfirmForm>
            ) : null}
          </div>
        )}
        <p className="muted">停用：账号立即退出所有设备，已打开的页面在下一次操作时显示为未登录，弹幕无法再发送；登录时提示“账号已停用”。</p>
      </section>
      {isSelf ? null : (
        <section className="panel danger" aria-labelledby="delete-title">
          <h2 id="delete-title">删除账号</h2>
          <p>删除后，该账号的收藏、观看记录和登录设备一并删除，无法恢复。</p>
          <form method="post" action={`/admin/users/${account.id}/delete`} className="row">
            <div className="field">
              <label htmlFor="delete-confirm">输入该账号的邮箱以确认</label>
              <input id="delete-confirm" name="confirm" type="text" autoComplete="off" required />
            </div>
            <div className="field">
              <button type="submit">删除账号</button>
            </div>
          </form>
        </section>
      )}
    </>
  );
}
