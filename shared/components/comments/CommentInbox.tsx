/**
 * The profile's part of the 评论区 (docs/decisions/0110-comments.md): the nickname comments are
 * shown with (never the e-mail) and 回复我的 — replies to the viewer's comments, with the count of
 * unread ones and 全部标为已读. Read from /api/comments/me (worker/comments/api.ts) after the page
 * shows; nothing of it is in the server's HTML of the profile.
 */
import { useEffect, useId, useState, type FormEvent } from "react";
import { beijingMinute } from "../../danmaku/moderation";
import { COMMENT_MESSAGES, MAX_NICKNAME_CHARS, type InboxEntry } from "../../comments/model";

interface Me {
  nickname: string;
  chosen: boolean;
  unread: number;
}

async function json<T>(method: string, url: string, body?: unknown): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  try {
    const res = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? undefined : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const value = await res.json<T & { error?: { message?: string } }>();
    return res.ok ? { ok: true, value } : { ok: false, message: value.error?.message ?? COMMENT_MESSAGES.failed };
  } catch {
    return { ok: false, message: COMMENT_MESSAGES.failed };
  }
}

export function CommentInbox() {
  const id = useId();
  const [me, setMe] = useState<Me | null>(null);
  const [entries, setEntries] = useState<InboxEntry[] | null>(null);
  const [nickname, setNickname] = useState("");
  const [message, setMessage] = useState("");

  useEffect(() => {
    let live = true;
    void Promise.all([json<Me>("GET", "/api/comments/me"), json<{ items: InboxEntry[] }>("GET", "/api/comments/me/replies")]).then(([profile, inbox]) => {
      if (!live) return;
      if (profile.ok) {
        setMe(profile.value);
        setNickname(profile.value.nickname);
      } else setMessage(profile.message);
      if (inbox.ok) setEntries(inbox.value.items);
    });
    return () => {
      live = false;
    };
  }, []);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await json<{ nickname: string }>("PUT", "/api/comments/me/nickname", { nickname });
    if (!answer.ok) return setMessage(answer.message);
    setMe((current) => current && { ...current, nickname: answer.value.nickname, chosen: true });
    setNickname(answer.value.nickname);
    setMessage("昵称已保存");
  };

  const markRead = async () => {
    const answer = await json<{ unread: number }>("POST", "/api/comments/me/replies/seen");
    if (!answer.ok) return setMessage(answer.message);
    setMe((current) => current && { ...current, unread: 0 });
    setEntries((current) => current && current.map((e) => ({ ...e, unread: false })));
  };

  const unread = me?.unread ?? 0;
  return (
    <section className="home-section comment-inbox" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        回复我的
        {unread > 0 ? <span className="inbox-unread">{`${unread} 条未读`}</span> : null}
      </h2>
      <form className="nickname-form" onSubmit={(event) => void save(event)}>
        <label htmlFor={`${id}-nickname`}>评论昵称</label>
        <input
          id={`${id}-nickname`}
          value={nickname}
          maxLength={MAX_NICKNAME_CHARS + 10}
          onChange={(event) => setNickname(event.target.value)}
          aria-describedby={`${id}-hint`}
        />
        <button type="submit" className="button button-secondary" disabled={me === null}>
          保存
        </button>
        <p id={`${id}-hint`} className="muted nickname-hint">
          {`评论区显示这个昵称，不会显示你的邮箱（${MAX_NICKNAME_CHARS}字以内）`}
        </p>
      </form>
      <p className="comment-message" role="status">
        {message}
      </p>
      {entries === null ? (
        <p className="muted">正在读取…</p>
      ) : entries.length === 0 ? (
        <p className="muted">还没有人回复你的评论。</p>
      ) : (
        <>
          <ul className="inbox-list">
            {entries.map((e) => (
              <li key={e.id} className={e.unread ? "inbox-item is-unread" : "inbox-item"}>
                <p className="comment-meta">
                  <span className="comment-author">{e.nickname}</span>
                  <span>回复了你</span>
                  <time dateTime={new Date(e.created).toISOString()}>{beijingMinute(e.created)}</time>
                  {e.unread ? <span className="inbox-new">未读</span> : null}
                </p>
                <p className="comment-text">{e.text}</p>
                <p className="muted inbox-answered">{`你的评论：${e.answered}`}</p>
                <a href={`/video/${encodeURIComponent(e.titleId)}#comments`}>{`《${e.title}》`}</a>
              </li>
            ))}
          </ul>
          {unread > 0 ? (
            <button type="button" className="button button-ghost" onClick={() => void markRead()}>
              全部标为已读
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
