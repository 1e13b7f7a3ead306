/**
 * The list screen 弹幕管理 (views/Danmaku.tsx) and 评论管理 (views/Comments.tsx) share: the filters
 * (title, episode, user, text, Beijing dates), a page of rows with a checkbox each, 删除选中的…
 * behind a confirm, and the pager back to the newest and on to older ones. Each screen gives its
 * noun, its address and its rows.
 */
import type { ReactNode } from "react";
import type { DanmakuListQuery } from "../../../shared/danmaku/moderation";
import { Notice } from "./Layout";

/** A list's address with its filters and the page (`before`: the last id of the page before). */
export function moderationHref(base: string, query: DanmakuListQuery, before: number | null = null): string {
  const params = new URLSearchParams();
  for (const key of ["title", "episode", "user", "text", "from", "to"] as const) if (query[key]) params.set(key, query[key]);
  if (before !== null) params.set("before", String(before));
  const search = params.toString();
  return `${base}${search ? `?${search}` : ""}`;
}

export interface ModerationListProps {
  /** What is listed: 评论 or 弹幕 (headings, labels, the empty text). */
  noun: "评论" | "弹幕";
  /** The list's address (/admin/comments, /admin/danmaku); deletes go to `${base}/delete`. */
  base: string;
  /** The prefix of the form fields' ids on the page. */
  prefix: string;
  query: DanmakuListQuery;
  /** A filter that could not be applied (an unknown user, the account service down). */
  problem?: string;
  count: number;
  next: number | null;
  /** The confirm text of 删除选中的… */
  confirm: string;
  /** The table's rows. */
  children: ReactNode;
}

export function ModerationList({ noun, base, prefix, query, problem, count, next, confirm, children }: ModerationListProps) {
  const id = (name: string) => `${prefix}-${name}`;
  return (
    <>
      <form method="get" action={base} className="row panel" role="search" aria-label={`筛选${noun}`}>
        <div className="field grow">
          <label htmlFor={id("title")}>视频标题或编号</label>
          <input id={id("title")} name="title" type="search" defaultValue={query.title} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={id("episode")}>集数</label>
          <input id={id("episode")} name="episode" type="number" min={1} max={9999} inputMode="numeric" defaultValue={query.episode} />
        </div>
        <div className="field grow">
          <label htmlFor={id("user")}>用户（邮箱或账号 ID）</label>
          <input id={id("user")} name="user" type="search" defaultValue={query.user} autoComplete="off" />
        </div>
        <div className="field grow">
          <label htmlFor={id("text")}>{`${noun}内容`}</label>
          <input id={id("text")} name="text" type="search" defaultValue={query.text} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={id("from")}>从（北京时间）</label>
          <input id={id("from")} name="from" type="date" defaultValue={query.from} />
        </div>
        <div className="field">
          <label htmlFor={id("to")}>到</label>
          <input id={id("to")} name="to" type="date" defaultValue={query.to} />
        </div>
        <div className="field">
          <button type="submit">筛选</button>
        </div>
      </form>
      {problem ? <Notice kind="error">{problem}</Notice> : null}
      <form method="post" action={`${base}/delete`} className="panel" aria-labelledby={id("found")} data-confirm={confirm}>
        <h2 id={id("found")}>{`${query.before === null ? `最新的${noun}` : `更早的${noun}`}（本页 ${count} 条）`}</h2>
        <input type="hidden" name="back" value={moderationHref(base, query, query.before)} />
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col" className="nowrap">
                  <span className="visually-hidden">选择</span>
                </th>
                <th scope="col">{noun}</th>
                <th scope="col" className="wide-only">
                  视频
                </th>
                <th scope="col">用户</th>
              </tr>
            </thead>
            <tbody>{children}</tbody>
          </table>
        </div>
        {count === 0 ? <p className="muted">{`没有符合条件的${noun}。`}</p> : null}
        {count > 0 ? (
          <div className="row">
            <div className="field">
              <button type="submit" className="danger">
                {`删除选中的${noun}`}
              </button>
            </div>
          </div>
        ) : null}
      </form>
      <nav className="pager" aria-label="分页">
        {query.before !== null ? <a href={moderationHref(base, query)}>最新</a> : <span />}
        {next !== null ? <a href={moderationHref(base, query, next)}>{`更早的${noun}`}</a> : null}
      </nav>
    </>
  );
}
