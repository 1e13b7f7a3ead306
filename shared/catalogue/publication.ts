/**
 * 发布状态 of a title (docs/decisions/0074-live-catalogue.md): draft (草稿), published (已发布),
 * scheduled (定时发布: published with a time still ahead) and unpublished (已下架). The D1 view
 * `titles` (migrations/0013_live_catalogue.sql) lets a viewer see only `published` titles whose
 * `publish_at` has come. Times are China Standard Time (UTC+8, no daylight saving).
 */
import type { PublicationState, TitleEntry } from "./schema";

/** What the 管理后台 shows and filters by. */
export type ShownState = "draft" | "published" | "scheduled" | "unpublished";

export const STATE_NAMES: Readonly<Record<ShownState, string>> = {
  draft: "草稿",
  published: "已发布",
  scheduled: "定时发布",
  unpublished: "已下架",
};

export const SHOWN_STATES: readonly ShownState[] = ["published", "scheduled", "draft", "unpublished"];

export function shownState(state: PublicationState, publishAtMs: number, nowMs: number): ShownState {
  return state === "published" && publishAtMs > nowMs ? "scheduled" : state;
}

const CST_OFFSET_MS = 8 * 3600_000;

/** "2025-07-01T20:00:00+08:00" → epoch ms. */
export function publishAtMs(text: string): number {
  return Date.parse(text);
}

/** Epoch ms → "2025-07-01T20:00:00+08:00" (the file's and the form's form). */
export function shanghaiTime(ms: number): string {
  return new Date(ms + CST_OFFSET_MS).toISOString().slice(0, 19) + "+08:00";
}

/** A `datetime-local` value ("2025-07-01T20:00") read as China Standard Time, or null. */
export function fromLocalInput(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?$/.test(value)) return null;
  const ms = Date.parse(`${value.length === 16 ? value + ":00" : value}+08:00`);
  return Number.isFinite(ms) ? ms : null;
}

/** Epoch ms → a `datetime-local` value in China Standard Time. */
export const toLocalInput = (ms: number): string => shanghaiTime(ms).slice(0, 16);

/** The fields of an entry that say how it is published, and its catalogue fields without them. */
export function splitPublication(entry: TitleEntry): { content: TitleEntry; state: PublicationState; publishAt: number } {
  const { state, publishAt, version, ...content } = entry;
  void version;
  return { content, state: state ?? "published", publishAt: publishAt ? publishAtMs(publishAt) : 0 };
}

/** The entry the file holds for a live title: its catalogue fields, then state, time and version. */
export function fileEntry(content: TitleEntry, state: PublicationState, publishAt: number, version?: number): TitleEntry {
  const { state: _s, publishAt: _p, version: _v, ...fields } = content;
  void _s;
  void _p;
  void _v;
  return {
    ...fields,
    ...(state !== "published" ? { state } : {}),
    ...(publishAt > 0 ? { publishAt: shanghaiTime(publishAt) } : {}),
    ...(version !== undefined ? { version } : {}),
  };
}
