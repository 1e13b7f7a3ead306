/**
 * 举报弹幕 for the keyboard and screen readers (the 弹幕 layer over the video is aria-hidden; right
 * click and long press need a pointer): the 弹幕 bar's 举报弹幕 button opens this list of the 弹幕
 * on screen and just before (DanmakuStage.recent), latest first; choosing one opens the 举报 dialog
 * (ReportDialog.tsx). Loaded by Danmaku.tsx on the button's first press, not before.
 */
import { useEffect, useRef } from "react";
import type { DanmakuComment } from "../../danmaku/model";

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;

export function DanmakuReportList({
  comments,
  onPick,
  onClose,
}: {
  comments: readonly DanmakuComment[];
  onPick: (comment: DanmakuComment) => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });
  useEffect(() => {
    const box = ref.current;
    box?.querySelector<HTMLButtonElement>("button")?.focus();
    // Esc closes the list (and is not the player's: its shortcuts listen on the document).
    const escape = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.stopPropagation();
      closeRef.current();
    };
    box?.addEventListener("keydown", escape);
    return () => box?.removeEventListener("keydown", escape);
  }, []);
  return (
    <div ref={ref} className="danmaku-report-list" role="dialog" aria-label="选择要举报的弹幕">
      <p className="danmaku-report-list-title">{comments.length > 0 ? "屏幕上最近的弹幕（选择一条举报）" : "屏幕上暂时没有弹幕"}</p>
      {comments.length > 0 ? (
        <ul>
          {comments.map((c) => (
            <li key={c.id}>
              <button type="button" onClick={() => onPick(c)}>
                <span className="danmaku-report-list-time">{clock(c.time)}</span>
                <span className="danmaku-report-list-text">{c.text}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <button type="button" className="danmaku-report-list-close" onClick={onClose}>
        取消
      </button>
    </div>
  );
}
