/**
 * 弹幕 posted per UTC day across every room, for the 管理后台's 概览 (migrations/0011): each room
 * keeps its comments in its own Durable Object storage, and reading every room to count them is
 * not possible cheaply — so the room raises a D1 counter with every comment it stores. Sample
 * comments are not posts and are not counted; comments stored before this counter are not either.
 */
import { utcDay } from "../../shared/ranking";

/** Adds one post to today's count; a failure is logged, never the post's. */
export async function countDanmakuPost(db: D1Database, nowMs: number): Promise<void> {
  try {
    await db.prepare("INSERT INTO danmaku_daily (day, posts) VALUES (?, 1) ON CONFLICT (day) DO UPDATE SET posts = posts + 1").bind(utcDay(nowMs)).run();
  } catch (error) {
    console.error("danmaku: the daily post count could not be raised", error);
  }
}
