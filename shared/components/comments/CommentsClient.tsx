/**
 * The 评论区 in the browser (docs/decisions/0110-comments.md): its own chunk, loaded by
 * CommentsSlot.tsx when the section comes near the viewport or is touched, rendered (a portal)
 * in place of the server's first page. Reads pages of /api/comments (worker/comments/api.ts)
 * with the viewer's likes, posts comments and replies, likes, deletes the viewer's own, opens
 * 举报 (the shared report dialog, kind 'comment') and loads more comments and replies on demand.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useReportDialog } from "../useReportDialog";
import { CommentEntry, CommentsHead, type ReplyActions } from "./CommentView";
import { COMMENT_MESSAGES, MAX_COMMENT_CHARS, type CommentItem, type CommentPage, type CommentReply, type CommentSort } from "../../comments/model";

export interface CommentsProps {
  titleId: string;
  episode: number;
  path: string;
  signedIn: boolean;
  /** The first page the server rendered (the page's data): shown until the fresh read arrives. */
  page: CommentPage;
}

interface Failure {
  error?: { message?: string };
}

async function request<T>(method: string, url: string, body?: unknown): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  try {
    const res = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? undefined : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const value = await res.json<T & Failure>();
    return res.ok ? { ok: true, value } : { ok: false, message: value.error?.message ?? COMMENT_MESSAGES.failed };
  } catch {
    return { ok: false, message: COMMENT_MESSAGES.failed };
  }
}

interface Thread {
  replies: CommentReply[];
  page: number;
  more: boolean;
}

/** Whom a reply form answers: the thread (top-level comment) and the comment or reply. */
interface ReplyTarget {
  thread: number;
  to: number;
  nickname: string;
}

function Composer({
  label,
  placeholder,
  focusNow,
  onSend,
  onCancel,
}: {
  label: string;
  placeholder: string;
  /** Focus the box when it appears (a reply's form, opened by 回复). */
  focusNow: boolean;
  onSend: (text: string) => Promise<string | null>;
  onCancel?: () => void;
}) {
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState("");
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (focusNow) box.current?.focus();
  }, [focusNow]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const error = await onSend(text);
    setBusy(false);
    setMessage(error ?? "");
    if (!error) setText("");
  };
  return (
    <form className="comment-form" onSubmit={(event) => void submit(event)}>
      <label className="comment-form-label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="comment-input"
        rows={3}
        maxLength={MAX_COMMENT_CHARS + 100}
        placeholder={placeholder}
        ref={box}
        value={text}
        onChange={(event) => setText(event.target.value)}
        // The player's shortcuts listen on the document: keys typed here are the box's.
        onKeyDown={(event) => event.stopPropagation()}
      />
      <div className="comment-form-row">
        <p className="comment-message" role="status">
          {message}
        </p>
        {onCancel ? (
          <button type="button" className="button" onClick={onCancel}>
            取消
          </button>
        ) : null}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? "发送中…" : "发表"}
        </button>
      </div>
    </form>
  );
}

/** The 评论区, rendered by CommentsSlot.tsx into the slot of the server's HTML. */
export function Comments({ titleId, episode, path, signedIn, page: initial }: CommentsProps) {
  const [query, setQuery] = useState<{ sort: CommentSort; page: number }>({ sort: "hot", page: 1 });
  const [loaded, setLoaded] = useState<{ sort: CommentSort; page: number } | null>(null);
  const [list, setList] = useState<CommentPage | null>(initial);
  const [threads, setThreads] = useState<Record<number, Thread>>({});
  const [replying, setReplying] = useState<ReplyTarget | null>(null);
  const [notice, setNotice] = useState("");
  const report = useReportDialog();
  const base = `/api/comments/title/${encodeURIComponent(titleId)}`;

  const { sort } = query;
  const loading = loaded !== query;

  // Every query (an order's first page, the next page, page 1 again after a delete) is one read; it also brings the viewer's likes.
  useEffect(() => {
    let live = true;
    void request<CommentPage>("GET", `${base}?sort=${query.sort}&page=${query.page}`).then((answer) => {
      if (!live) return;
      setLoaded(query);
      if (!answer.ok) return setNotice(answer.message);
      const { value } = answer;
      setList((current) =>
        query.page > 1 && current ? { ...value, items: [...current.items, ...value.items.filter((i) => !current.items.some((c) => c.id === i.id))] } : value,
      );
      if (query.page === 1) setThreads({});
    });
    return () => {
      live = false;
    };
  }, [base, query]);

  const updateEverywhere = (id: number, change: (c: CommentReply) => CommentReply) => {
    setList(
      (current) =>
        current && {
          ...current,
          items: current.items.map((item) => ({
            ...(item.id === id ? (change(item) as CommentItem) : item),
            replies: item.replies.map((r) => (r.id === id ? change(r) : r)),
          })),
        },
    );
    setThreads((current) =>
      Object.fromEntries(Object.entries(current).map(([key, t]) => [key, { ...t, replies: t.replies.map((r) => (r.id === id ? change(r) : r)) }])),
    );
  };

  const actionsOf =
    (thread: number) =>
    (item: CommentReply): ReplyActions => ({
      like: () => {
        if (!signedIn) return setNotice(COMMENT_MESSAGES.signInToLike);
        void request<{ likes: number; liked: boolean }>(item.liked ? "DELETE" : "PUT", `/api/comments/item/${item.id}/like`).then((answer) =>
          answer.ok ? updateEverywhere(item.id, (c) => ({ ...c, likes: answer.value.likes, liked: answer.value.liked })) : setNotice(answer.message),
        );
      },
      reply: () => {
        if (!signedIn) return setNotice(COMMENT_MESSAGES.notSignedIn);
        setReplying({ thread, to: item.id, nickname: item.nickname });
      },
      report: () => report.open({ kind: "comment", titleId, episode: item.episode ?? episode, comment: { id: item.id, text: item.text }, signedIn }),
      remove: () => {
        if (!window.confirm("确定删除这条评论吗？")) return;
        void request<{ ok: true }>("DELETE", `/api/comments/item/${item.id}`).then((answer) => {
          if (!answer.ok) return setNotice(answer.message);
          setNotice("评论已删除");
          setQuery({ sort, page: 1 });
        });
      },
    });

  const send = async (text: string, target: ReplyTarget | null): Promise<string | null> => {
    const answer = await request<{ comment: CommentReply; thread: number | null }>("POST", base, { text, episode, replyTo: target?.to });
    if (!answer.ok) return answer.message;
    const { comment } = answer.value;
    if (target) {
      setList(
        (current) =>
          current && {
            ...current,
            total: current.total + 1,
            items: current.items.map((item) =>
              item.id === target.thread
                ? { ...item, replyCount: item.replyCount + 1, replies: threads[item.id] ? item.replies : [...item.replies, comment] }
                : item,
            ),
          },
      );
      setThreads((current) =>
        current[target.thread]
          ? { ...current, [target.thread]: { ...current[target.thread], replies: [...current[target.thread].replies, comment] } }
          : current,
      );
      setReplying(null);
    } else {
      setList(
        (current) => current && { ...current, total: current.total + 1, items: [{ ...comment, removed: false, replyCount: 0, replies: [] }, ...current.items] },
      );
    }
    setNotice(target ? "回复成功" : "评论成功");
    return null;
  };

  const loadThread = async (id: number) => {
    const page = (threads[id]?.page ?? 0) + 1;
    const answer = await request<{ items: CommentReply[]; more: boolean }>("GET", `${base}/replies/${id}?page=${page}`);
    if (!answer.ok) return setNotice(answer.message);
    setThreads((current) => ({ ...current, [id]: { replies: [...(current[id]?.replies ?? []), ...answer.value.items], page, more: answer.value.more } }));
  };

  const items = list?.items ?? [];
  return (
    <section className="comments" aria-labelledby="comments-title" aria-busy={loading}>
      <CommentsHead total={list?.total ?? 0} sort={sort} onSort={(order) => setQuery({ sort: order, page: 1 })} />
      {signedIn ? (
        <Composer label="发表评论" placeholder="发一条友善的评论" focusNow={false} onSend={(text) => send(text, null)} />
      ) : (
        <p className="comments-signin">
          <a href={`/auth?mode=signin&next=${encodeURIComponent(path)}`}>登录</a>后参与评论
        </p>
      )}
      <p className="comments-notice" role="status">
        {notice}
      </p>
      {list && items.length === 0 ? <p className="comments-empty">还没有评论，快来发表第一条吧</p> : null}
      {items.length > 0 ? (
        <ol className="comment-list">
          {items.map((item) => {
            const thread = threads[item.id];
            const shown = thread ? thread.replies : item.replies;
            const hidden = thread ? thread.more : item.replyCount > item.replies.length;
            return (
              <CommentEntry
                key={item.id}
                item={item}
                replies={shown}
                actions={actionsOf(item.id)}
                after={
                  <>
                    {hidden ? (
                      <button type="button" className="comment-more-replies" onClick={() => void loadThread(item.id)}>
                        {thread ? "加载更多回复" : `共 ${item.replyCount} 条回复，查看全部`}
                      </button>
                    ) : null}
                    {replying?.thread === item.id ? (
                      <Composer
                        key={replying.to}
                        label={`回复 @${replying.nickname}`}
                        placeholder={`回复 @${replying.nickname}`}
                        focusNow
                        onSend={(text) => send(text, replying)}
                        onCancel={() => setReplying(null)}
                      />
                    ) : null}
                  </>
                }
              />
            );
          })}
        </ol>
      ) : null}
      {list?.more ? (
        <button type="button" className="button comments-more" disabled={loading} onClick={() => setQuery({ sort, page: list.page + 1 })}>
          {loading ? "加载中…" : "加载更多评论"}
        </button>
      ) : null}
      {report.dialog}
    </section>
  );
}
