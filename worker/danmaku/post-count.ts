/**
 * 弹幕 posted per UTC day across every room, for the 管理后台's 概览 (migrations/0011): each room
 * keeps its comments in its own Durable Object storage, and reading every room to count them is
 * not possible cheaply — so the room raises a D1 counter with every comment it stores (in the
 * batch that indexes the comment for 弹幕管理: policy.ts recordPosts). Sample comments are not
 * posts and are not counted; comments stored before this counter are not either.
 */
import { utcDay } from "../../shared/ranking";

/** The statement that adds `posts` posts (one by default) to the day of `nowMs`. */
export function countStatement(db: D1Database, nowMs: number, posts = 1): D1PreparedStatement {
  return db.prepare("INSERT INTO danmaku_daily (day, posts) VALUES (?1, ?2) ON CONFLICT (day) DO UPDATE SET posts = posts + ?2").bind(utcDay(nowMs), posts);
}
