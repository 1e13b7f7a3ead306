/**
 * Where the 评论区 goes on the video page (docs/decisions/0110-comments.md). The server renders
 * the first page here (CommentsSection.tsx, handed over by the worker); in the browser the page keeps that HTML untouched (a
 * slot React does not hydrate) and loads the comment client (CommentsClient.tsx, its own chunk)
 * only when the section comes near the viewport (touching or focusing it brings it there), then
 * renders it into the slot in place of the server's HTML. Nothing of it is in the route's first JavaScript
 * (tests/worker/js-budget.test.ts). Give it a key per title.
 */
import { memo, useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import type { CommentPage } from "../../comments/model";
import type { Comments } from "./CommentsClient";
import type { CommentsSection as Section } from "./CommentsSection";

let ServerSection: typeof Section | null = null;

/** The worker hands its section over as it starts (worker/ssr.tsx): the browser's bundle never holds the server's markup. */
export function renderCommentsWith(section: typeof Section): void {
  ServerSection = section;
}
/** The same object on every render: React never rewrites the slot's HTML. */
const KEEP = { __html: "" };

export interface CommentsSlotProps {
  titleId: string;
  episode: number;
  path: string;
  signedIn: boolean;
  /** The first page (the page's data): what the server renders, and what the client shows until its own read. */
  page: CommentPage;
}

export const CommentsSlot = memo(function CommentsSlot(props: CommentsSlotProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [client, setClient] = useState<{ C: typeof Comments; slot: HTMLElement } | null>(null);
  useEffect(() => {
    const slot = ref.current;
    if (!slot) return;
    // Touching or focusing the section brings it into view too: seeing it is the one trigger.
    const seen = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        seen.disconnect();
        void import("./CommentsClient").then(({ Comments: C }) => {
          if (!slot.isConnected) return;
          slot.replaceChildren();
          setClient({ C, slot });
        });
      },
      { rootMargin: "200px" },
    );
    seen.observe(slot);
    return () => seen.disconnect();
  }, []);
  return ServerSection ? (
    <div className="comments-slot" id="comments">
      <ServerSection page={props.page} path={props.path} />
    </div>
  ) : (
    <>
      <div ref={ref} className="comments-slot" id="comments" dangerouslySetInnerHTML={KEEP} suppressHydrationWarning />
      {client && createPortal(<client.C {...props} />, client.slot)}
    </>
  );
});
