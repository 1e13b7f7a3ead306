/**
 * The filters 弹幕管理 (./danmaku.ts) and 评论管理 (./comments.ts) share, as SQL: title (id, or
 * a part of the name), episode, the poster (an account id as it is, so the posts of an account
 * deleted since are still found; an e-mail through the account service), text, Beijing days, and
 * the page's cursor. Each list names its own columns.
 */
import { UNKNOWN_EMAIL_MESSAGE } from "../../shared/admin/account-roles";
import type { DanmakuListQuery } from "../../shared/danmaku/moderation";
import { shanghaiDayStart } from "./audit";
import { ACCOUNT_ID, findPoster } from "./posters";

/** A list's columns (qualified, e.g. `p.video_id`). */
export interface FilterColumns {
  title: string;
  episode: string;
  user: string;
  text: string;
  created: string;
  /** The column the page's cursor (`before`) counts down. */
  cursor: string;
}

export type Filter = { where: string[]; params: (string | number)[] } | { problem: string };

/** A LIKE pattern that finds `text` anywhere (its own %, _ and \ taken literally, with ESCAPE '\'). */
export const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

export async function moderationFilter(env: Env, query: DanmakuListQuery, columns: FilterColumns, unknownUser: string): Promise<Filter> {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (query.title) {
    where.push(`(${columns.title} = ? OR ${columns.title} IN (SELECT id FROM catalogue_titles WHERE title LIKE ? ESCAPE '\\'))`);
    params.push(query.title, likeOf(query.title));
  }
  if (query.episode) {
    where.push(`${columns.episode} = ?`);
    params.push(Number(query.episode));
  }
  if (query.user) {
    const user = query.user.trim();
    const poster = ACCOUNT_ID.test(user) ? { id: user.toLowerCase(), email: null } : await findPoster(env, user);
    if (poster === "unavailable") return { problem: "账号服务暂时无法按邮箱查找，请改用账号 ID" };
    if (!poster) return { problem: user.includes("@") ? UNKNOWN_EMAIL_MESSAGE(user) : unknownUser };
    where.push(`${columns.user} = ?`);
    params.push(poster.id);
  }
  if (query.text) {
    where.push(`${columns.text} LIKE ? ESCAPE '\\'`);
    params.push(likeOf(query.text));
  }
  const from = shanghaiDayStart(query.from);
  if (from !== null) {
    where.push(`${columns.created} >= ?`);
    params.push(from);
  }
  const to = shanghaiDayStart(query.to);
  if (to !== null) {
    where.push(`${columns.created} < ?`);
    params.push(to + 86_400_000);
  }
  if (query.before !== null) {
    where.push(`${columns.cursor} < ?`);
    params.push(query.before);
  }
  return { where, params };
}

/** ` WHERE …` of a filter's conditions, or nothing. */
export const whereOf = (where: readonly string[]) => (where.length ? ` WHERE ${where.join(" AND ")}` : "");
