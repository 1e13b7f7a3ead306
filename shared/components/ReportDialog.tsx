/**
 * The 举报 / 报错 dialog of the video page (a modal <dialog>): a 弹幕 report (from the overlay,
 * shared/player/danmaku/Danmaku.tsx; signed in only), a comment (shared/components/comments/CommentsClient.tsx;
 * signed in only) or a playback problem (报错, from
 * VideoActions.tsx; signed out too), with its reasons and an optional note,
 * posted to POST /api/reports (worker/reports/api.ts). Loaded only when opened (useReportDialog.tsx):
 * nothing of it is in a route's first JavaScript.
 */
import { useEffect, useId, useRef, useState } from "react";
import { MAX_NOTE_CHARS, REASONS, REPORT_MESSAGES, type ReportKind } from "../reports/model";

export interface ReportDialogProps {
  kind: ReportKind;
  titleId: string;
  episode: number;
  /** The reported 弹幕 (kind 'danmaku', with its time) or comment of the 评论区 (kind 'comment'). */
  comment?: { id: number; time?: number; text: string };
  signedIn: boolean;
  onClose: () => void;
}

type Outcome = { kind: "ok" | "error"; message: string } | null;

async function send(body: Record<string, unknown>): Promise<Outcome> {
  try {
    const res = await fetch("/api/reports", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify(body),
    });
    const answer: { message?: string; error?: { message?: string } } = await res.json();
    if (res.ok) return { kind: "ok", message: answer.message ?? REPORT_MESSAGES.sent };
    return { kind: "error", message: answer.error?.message ?? REPORT_MESSAGES.failed };
  } catch {
    return { kind: "error", message: REPORT_MESSAGES.failed };
  }
}

export function ReportDialog({ kind, titleId, episode, comment, signedIn, onClose }: ReportDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [reason, setReason] = useState("");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const title = kind === "danmaku" ? "举报弹幕" : kind === "comment" ? "举报评论" : "报错";
  const needsSignIn = kind !== "playback" && !signedIn;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    // Keys typed here are the dialog's, not the player's shortcuts (shared/player/usePlayerKeyboard.ts listens on the document).
    const keep = (event: KeyboardEvent) => event.stopPropagation();
    dialog.addEventListener("keydown", keep);
    return () => dialog.removeEventListener("keydown", keep);
  }, []);

  const submit = async () => {
    if (busy) return;
    if (!reason) {
      setOutcome({ kind: "error", message: REPORT_MESSAGES.badReason });
      return;
    }
    setBusy(true);
    const body: Record<string, unknown> = { kind, title: titleId, episode, reason, note: note.trim() || undefined };
    if (comment) Object.assign(body, { comment: comment.id, time: comment.time });
    const result = await send(body);
    setBusy(false);
    setOutcome(result);
  };

  const done = outcome?.kind === "ok";
  return (
    <dialog ref={ref} className="report-dialog" aria-labelledby={`${id}-title`} onClose={onClose}>
      <h2 id={`${id}-title`} className="report-title">
        {title}
      </h2>
      {comment ? <blockquote className="report-quote">{comment.text}</blockquote> : null}
      {needsSignIn ? (
        <>
          <p role="alert">{kind === "comment" ? REPORT_MESSAGES.signInForComment : REPORT_MESSAGES.signInForDanmaku}</p>
          <div className="report-buttons">
            <a className="button button-primary" href={`/auth?mode=signin&next=${encodeURIComponent(location.pathname)}`}>
              登录
            </a>
            <button type="button" className="button" onClick={() => ref.current?.close()}>
              关闭
            </button>
          </div>
        </>
      ) : (
        <form
          method="dialog"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <fieldset className="report-reasons" disabled={done}>
            <legend>{kind === "playback" ? "遇到的问题" : "举报原因"}</legend>
            {Object.entries(REASONS[kind]).map(([value, label]) => (
              <label key={value} className="report-reason">
                <input type="radio" name="reason" value={value} checked={reason === value} onChange={() => setReason(value)} />
                {label}
              </label>
            ))}
          </fieldset>
          <label className="report-note" htmlFor={`${id}-note`}>
            补充说明（选填，{MAX_NOTE_CHARS}字以内）
          </label>
          <textarea
            id={`${id}-note`}
            name="note"
            rows={3}
            maxLength={MAX_NOTE_CHARS}
            value={note}
            disabled={done}
            onChange={(event) => setNote(event.target.value)}
          />
          <p className={`report-message${outcome?.kind === "error" ? " is-error" : ""}`} role="status">
            {outcome?.message ?? ""}
          </p>
          <div className="report-buttons">
            {done ? null : (
              <button type="submit" className="button button-primary" disabled={busy}>
                {busy ? "提交中…" : "提交"}
              </button>
            )}
            <button type="button" className="button" onClick={() => ref.current?.close()}>
              {done ? "关闭" : "取消"}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
