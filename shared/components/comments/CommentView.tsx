/**
 * The markup of the 评论区 (docs/decisions/0110-comments.md), one for the server's first page
 * (CommentsSection.tsx, never hydrated) and the client (CommentsClient.tsx, loaded on approach):
 * the heading with the count and the order, one comment with its replies. What a comment can do
 * (点赞, 回复, 举报, 删除) is the client's, passed in as `actions`; the server renders the same
 * buttons, which load the client when touched.
 */
import type { ReactNode } from "react";
import { beijingMinute } from "../../danmaku/moderation";
import { COMMENT_SORTS, SORT_NAMES, type CommentItem, type CommentReply, type CommentSort } from "../../comments/model";

export function CommentsHead({ total, sort, onSort }: { total: number; sort: CommentSort; onSort?: (sort: CommentSort) => void }) {
  return (
    <div className="comments-head">
      <h2 id="comments-title" className="comments-title">
        评论 <span className="comments-count">{total}</span>
      </h2>
      <div className="comments-sort" role="group" aria-label="评论排序">
        {COMMENT_SORTS.map((s) => (
          <button key={s} type="button" className="comments-sort-button" aria-pressed={s === sort} data-sort={s} onClick={onSort ? () => onSort(s) : undefined}>
            {SORT_NAMES[s]}
          </button>
        ))}
      </div>
    </div>
  );
}

/** The buttons under a comment, as the client wires them (absent on the server: inert buttons that load the client). */
export interface ReplyActions {
  like?: () => void;
  reply?: () => void;
  report?: () => void;
  remove?: () => void;
}

function Reply({
  item,
  actions,
  children,
}: {
  item: CommentReply & { removed?: boolean };
  actions?: (item: CommentReply) => ReplyActions;
  children?: ReactNode;
}) {
  const wired = actions?.(item) ?? {};
  const removed = item.removed === true;
  return (
    <article className={`comment-body${removed ? " is-removed" : ""}`} aria-label={removed ? "已删除的评论" : `${item.nickname}的评论`}>
      {removed ? null : (
        <p className="comment-meta">
          <span className="comment-author">{item.nickname}</span>
          <time dateTime={new Date(item.created).toISOString()}>{beijingMinute(item.created)}</time>
          {item.episode ? <span className="comment-episode">{`第${item.episode}集`}</span> : null}
        </p>
      )}
      <p className="comment-text">
        {item.replyTo ? <span className="comment-reply-to">{`回复 @${item.replyTo}：`}</span> : null}
        {item.text}
      </p>
      {removed ? null : (
        <div className="comment-actions">
          <button type="button" className="comment-action" aria-pressed={item.liked === true} data-action="like" onClick={wired.like}>
            {`点赞 ${item.likes}`}
          </button>
          <button type="button" className="comment-action" data-action="reply" onClick={wired.reply} aria-label={`回复${item.nickname}`}>
            回复
          </button>
          <button type="button" className="comment-action" data-action="report" onClick={wired.report} aria-label={`举报${item.nickname}的评论`}>
            举报
          </button>
          {item.mine ? (
            <button type="button" className="comment-action" data-action="delete" onClick={wired.remove}>
              删除
            </button>
          ) : null}
        </div>
      )}
      {children}
    </article>
  );
}

/** One top-level comment with the replies shown (`replies`, the preview on the server), and what follows them (`after`: the form, 查看全部回复). */
export function CommentEntry({
  item,
  replies = item.replies,
  actions,
  after,
}: {
  item: CommentItem;
  replies?: CommentReply[];
  actions?: (item: CommentReply) => ReplyActions;
  after?: ReactNode;
}) {
  return (
    <li className="comment" id={`comment-${item.id}`}>
      <Reply item={item} actions={actions} />
      {replies.length > 0 ? (
        <ol className="comment-replies" aria-label="回复">
          {replies.map((reply) => (
            <li key={reply.id} className="comment comment-reply" id={`comment-${reply.id}`}>
              <Reply item={reply} actions={actions} />
            </li>
          ))}
        </ol>
      ) : null}
      {after}
    </li>
  );
}
