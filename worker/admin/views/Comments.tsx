/**
 * 评论管理 (both roles), like 弹幕管理's list (views/Danmaku.tsx): the comments of every title with
 * filters, delete a selection; 禁言 links to 弹幕管理's mutes (one mute covers 弹幕 and comments).
 */
import { beijingMinute } from "../../../shared/danmaku/moderation";
import { COMMENT_STATE_NAMES, type AdminComment, type AdminCommentList } from "../comments";
import { untilText } from "../danmaku";
import { Notice } from "./Layout";
import { ModerationList } from "./ModerationList";

function Row({ item }: { item: AdminComment }) {
  const live = item.state === "live";
  return (
    <tr>
      <td>{live ? <input type="checkbox" name="c" value={String(item.id)} aria-label={`选择评论 #${item.id}：${item.text.slice(0, 40)}`} /> : null}</td>
      <td className="break">
        {item.parentId !== null ? <span className="muted">{`回复 #${item.parentId}：`}</span> : null}
        {item.text}
        <span className="muted block">
          {`#${item.id} · ${beijingMinute(item.created)} · 赞 ${item.likes}${item.parentId === null ? ` · 回复 ${item.replies}` : ""}`}
          {live ? "" : ` · ${COMMENT_STATE_NAMES[item.state]}${item.removedBy ? `（${item.removedBy}）` : ""}`}
        </span>
      </td>
      <td className="wide-only">
        <a href={`/admin/comments?title=${encodeURIComponent(item.titleId)}`}>{item.title}</a>
        {item.episode ? <span className="muted">{` 第 ${item.episode} 集`}</span> : null}
      </td>
      <td className="break">
        <a href={`/admin/comments?user=${encodeURIComponent(item.user.id)}`}>{item.user.email ?? item.user.id}</a>
        {item.mutedUntil !== undefined ? <span className="muted block">{`禁言至 ${untilText(item.mutedUntil)}`}</span> : null}
        <a className="block" href={`/admin/danmaku/mutes?user=${encodeURIComponent(item.user.id)}`}>
          禁言…
        </a>
      </td>
    </tr>
  );
}

export function CommentsScreen({ list, ok, error }: { list: AdminCommentList; ok?: string; error?: string }) {
  return (
    <>
      <h1>评论管理</h1>
      {ok ? <Notice kind="ok">{ok}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <ModerationList
        noun="评论"
        base="/admin/comments"
        prefix="cm"
        query={list.query}
        problem={list.problem}
        count={list.items.length}
        next={list.next}
        confirm="确定删除选中的评论吗？有回复的评论会显示为“该评论已被删除”。"
      >
        {list.items.map((item) => (
          <Row key={item.id} item={item} />
        ))}
      </ModerationList>
    </>
  );
}
