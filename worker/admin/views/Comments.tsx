/**
 * 评论管理 (both roles), like 弹幕管理's list (views/Danmaku.tsx): the comments of every title with
 * filters, delete a selection; 禁言 links to 弹幕管理's mutes (one mute covers 弹幕 and comments).
 */
import { beijingMinute, type DanmakuListQuery } from "../../../shared/danmaku/moderation";
import { COMMENT_STATE_NAMES, type AdminComment, type AdminCommentList } from "../comments";
import { untilText } from "../danmaku";
import { Notice } from "./Layout";

export function commentsHref(query: DanmakuListQuery, before: number | null = null): string {
  const params = new URLSearchParams();
  for (const key of ["title", "episode", "user", "text", "from", "to"] as const) if (query[key]) params.set(key, query[key]);
  if (before !== null) params.set("before", String(before));
  const search = params.toString();
  return `/admin/comments${search ? `?${search}` : ""}`;
}

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
  const { query } = list;
  return (
    <>
      <h1>评论管理</h1>
      {ok ? <Notice kind="ok">{ok}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <form method="get" action="/admin/comments" className="row panel" role="search" aria-label="筛选评论">
        <div className="field grow">
          <label htmlFor="cm-title">视频标题或编号</label>
          <input id="cm-title" name="title" type="search" defaultValue={query.title} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="cm-episode">集数</label>
          <input id="cm-episode" name="episode" type="number" min={1} max={9999} inputMode="numeric" defaultValue={query.episode} />
        </div>
        <div className="field grow">
          <label htmlFor="cm-user">用户（邮箱或账号 ID）</label>
          <input id="cm-user" name="user" type="search" defaultValue={query.user} autoComplete="off" />
        </div>
        <div className="field grow">
          <label htmlFor="cm-text">评论内容</label>
          <input id="cm-text" name="text" type="search" defaultValue={query.text} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="cm-from">从（北京时间）</label>
          <input id="cm-from" name="from" type="date" defaultValue={query.from} />
        </div>
        <div className="field">
          <label htmlFor="cm-to">到</label>
          <input id="cm-to" name="to" type="date" defaultValue={query.to} />
        </div>
        <div className="field">
          <button type="submit">筛选</button>
        </div>
      </form>
      {list.problem ? <Notice kind="error">{list.problem}</Notice> : null}
      <form
        method="post"
        action="/admin/comments/delete"
        className="panel"
        aria-labelledby="cm-found"
        data-confirm="确定删除选中的评论吗？有回复的评论会显示为“该评论已被删除”。"
      >
        <h2 id="cm-found">{`${query.before === null ? "最新的评论" : "更早的评论"}（本页 ${list.items.length} 条）`}</h2>
        <input type="hidden" name="back" value={commentsHref(query, query.before)} />
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col" className="nowrap">
                  <span className="visually-hidden">选择</span>
                </th>
                <th scope="col">评论</th>
                <th scope="col" className="wide-only">
                  视频
                </th>
                <th scope="col">用户</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((item) => (
                <Row key={item.id} item={item} />
              ))}
            </tbody>
          </table>
        </div>
        {list.items.length === 0 ? <p className="muted">没有符合条件的评论。</p> : null}
        {list.items.length > 0 ? (
          <div className="row">
            <div className="field">
              <button type="submit" className="danger">
                删除选中的评论
              </button>
            </div>
          </div>
        ) : null}
      </form>
      <nav className="pager" aria-label="分页">
        {query.before !== null ? <a href={commentsHref(query)}>最新</a> : <span />}
        {list.next !== null ? <a href={commentsHref(query, list.next)}>更早的评论</a> : null}
      </nav>
    </>
  );
}
