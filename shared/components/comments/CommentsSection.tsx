/**
 * The 评论区's first page as the server renders it under the player (docs/decisions/0110-comments.md):
 * readable without JavaScript and by crawlers (`Comment` items in its structured data), the same
 * markup the client renders (CommentView.tsx). Rendered by
 * the worker only — the page keeps this HTML untouched (CommentsSlot.tsx) until the client chunk
 * takes the section over.
 */
import { useRootData } from "../useRootData";
import { serializeForScript } from "../../hydration";
import { CommentEntry, CommentsHead } from "./CommentView";
import type { CommentPage, CommentReply } from "../../comments/model";

const commentItem = (c: CommentReply) => ({
  "@type": "Comment",
  text: c.text,
  dateCreated: new Date(c.created).toISOString(),
  author: { "@type": "Person", name: c.nickname },
  upvoteCount: c.likes,
});

/** The first page as schema.org structured data: the page's `Comment` items with their replies (removed ones left out). */
export function commentStructuredData(page: CommentPage, url: string) {
  return {
    "@context": "https://schema.org",
    "@type": "WebPage",
    url,
    commentCount: page.total,
    comment: page.items.filter((c) => !c.removed).map((c) => ({ ...commentItem(c), comment: c.replies.map(commentItem) })),
  };
}

export function CommentsSection({ page, path }: { page: CommentPage; path: string }) {
  const { user, config } = useRootData();
  return (
    <section className="comments" aria-labelledby="comments-title">
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeForScript(commentStructuredData(page, config.origin + path)) }} />
      <CommentsHead total={page.total} sort={page.sort} />
      {user ? (
        <div className="comment-form">
          <label className="comment-form-label" htmlFor="comment-compose">
            发表评论
          </label>
          <textarea id="comment-compose" className="comment-input" rows={3} placeholder="发一条友善的评论" />
        </div>
      ) : (
        <p className="comments-signin">
          <a href={`/auth?mode=signin&next=${encodeURIComponent(path)}`}>登录</a>后参与评论
        </p>
      )}
      {page.items.length > 0 ? (
        <ol className="comment-list">
          {page.items.map((item) => (
            <CommentEntry
              key={item.id}
              item={item}
              after={
                item.replyCount > item.replies.length ? (
                  <button type="button" className="comment-more-replies" data-action="replies">{`共 ${item.replyCount} 条回复，查看全部`}</button>
                ) : null
              }
            />
          ))}
        </ol>
      ) : (
        <p className="comments-empty">还没有评论，快来发表第一条吧</p>
      )}
      {page.more ? (
        <button type="button" className="button comments-more" data-action="more">
          加载更多评论
        </button>
      ) : null}
    </section>
  );
}
