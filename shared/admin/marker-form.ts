/**
 * 片头 / 片尾 in 视频管理 (docs/decisions/0096-marker-editing.md): the markers of a title (every
 * episode's) and of each episode (its own, overriding the title's) read from the edit screen's
 * own form or the JSON API, checked with Chinese problems (both ends given, the end after the
 * start, within the episode, the intro over before the outro begins), and put into the entry.
 * The catalogue schema (shared/catalogue/schema.ts MarkerSchema) stays the one rule of what an
 * entry may hold; these checks come first so the operator reads 第2集 片头 rather than a path.
 * Pure.
 */
import type { Marker, TitleEntry } from "../catalogue/schema";
import { durationSeconds } from "../format";

export const MARKER_KINDS = ["intro", "outro"] as const;
export type MarkerKind = (typeof MARKER_KINDS)[number];
export const MARKER_NAMES: Readonly<Record<MarkerKind, string>> = { intro: "片头", outro: "片尾" };
const EDGE_NAMES = { start: "开始", end: "结束" } as const;
type Edge = keyof typeof EDGE_NAMES;

/** The markers an edit sets: the title's, and each episode's own (null: none / follows the title's). */
export interface MarkerEdit {
  intro: Marker | null;
  outro: Marker | null;
  episodes: Array<{ intro: Marker | null; outro: Marker | null }>;
}

/** Scope 0 is the title (全部剧集), n ≥ 1 episode n. */
export const markerField = (scope: number, kind: MarkerKind, edge: Edge): string => `${kind}-${edge}-${scope}`;

/** Where a marker applies, as the operator reads it. */
export const scopeName = (scope: number, series: boolean): string => (scope === 0 ? (series ? "全部剧集" : "正片") : `第${scope}集`);

/** The most a marker time may be: the schema's limit (a day). */
const MAX_SECONDS = 86_400;

/**
 * A time as typed: seconds ("90", "12.5") or 分:秒 / 时:分:秒 ("1:30", "1:02:03.5"). null when
 * empty; NaN when it is not a time.
 */
export function parseMarkerTime(text: string): number | null {
  const t = text.trim().replace(/：/g, ":");
  if (!t) return null;
  if (!/^\d+(?:\.\d+)?$/.test(t) && !/^\d+(?::[0-5]?\d){1,2}(?:\.\d+)?$/.test(t)) return Number.NaN;
  const seconds = t.split(":").reduce((acc, part) => acc * 60 + Number(part), 0);
  return Math.round(seconds * 10) / 10;
}

/** A marker time as the form shows it: m:ss, h:mm:ss, with tenths when there are any. */
export function formatMarkerTime(seconds: number): string {
  const tenths = Math.round(seconds * 10) % 10;
  const whole = Math.floor(Math.round(seconds * 10) / 10);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0") + (tenths ? `.${tenths}` : "");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

export type MarkerResult = { ok: true; edit: MarkerEdit } | { ok: false; problems: string[] };

/** A marker from its two ends as typed (strings) or sent (numbers); problems are pushed, worded for `where`. */
function markerOf(start: unknown, end: unknown, where: string, problems: string[]): Marker | null {
  const time = (raw: unknown, edge: Edge): number | null => {
    const value = typeof raw === "number" ? raw : typeof raw === "string" ? parseMarkerTime(raw) : raw == null ? null : Number.NaN;
    if (value !== null && (!Number.isFinite(value) || value < 0 || value > MAX_SECONDS)) {
      problems.push(`「${where}」的${EDGE_NAMES[edge]}时间格式有误：请填写秒数或 分:秒，例如 90 或 1:30`);
      return Number.NaN;
    }
    return value;
  };
  const s = time(start, "start");
  const e = time(end, "end");
  if (Number.isNaN(s) || Number.isNaN(e)) return null;
  if (s === null && e === null) return null;
  if (s === null || e === null) {
    problems.push(`「${where}」要同时填写开始和结束时间（都留空表示没有）`);
    return null;
  }
  if (e <= s) {
    problems.push(`「${where}」的结束时间（${formatMarkerTime(e)}）必须晚于开始时间（${formatMarkerTime(s)}）`);
    return null;
  }
  return { start: s, end: e };
}

/** Each episode's length in seconds (a film: its own), 0 when unknown. */
function lengthsOf(entry: Pick<TitleEntry, "duration" | "episodes">): number[] {
  return entry.episodes ? entry.episodes.map((e) => durationSeconds(e.duration)) : [durationSeconds(entry.duration)];
}

/** The further rules once every marker reads: within the episode, and the intro over before the outro. */
function checkAgainstEpisodes(edit: MarkerEdit, entry: Pick<TitleEntry, "duration" | "episodes">, problems: string[]): void {
  const series = entry.episodes !== undefined;
  const lengths = lengthsOf(entry);
  const longest = Math.max(0, ...lengths);
  for (const kind of MARKER_KINDS) {
    const own = edit[kind];
    if (own && longest > 0 && own.end > longest) {
      problems.push(
        `「${scopeName(0, series)} ${MARKER_NAMES[kind]}」的结束时间（${formatMarkerTime(own.end)}）超过了视频时长（${formatMarkerTime(longest)}）`,
      );
    }
  }
  lengths.forEach((length, i) => {
    const episode = edit.episodes[i] ?? { intro: null, outro: null };
    const where = scopeName(series ? i + 1 : 0, series);
    for (const kind of MARKER_KINDS) {
      const own = series ? episode[kind] : null;
      if (own && length > 0 && own.end > length) {
        problems.push(`「${where} ${MARKER_NAMES[kind]}」的结束时间（${formatMarkerTime(own.end)}）超过了这一集的时长（${formatMarkerTime(length)}）`);
      }
    }
    const intro = (series ? episode.intro : null) ?? edit.intro;
    const outro = (series ? episode.outro : null) ?? edit.outro;
    if (intro && outro && intro.end > outro.start) {
      problems.push(`「${where}」的片头（到 ${formatMarkerTime(intro.end)}）必须在片尾开始（${formatMarkerTime(outro.start)}）之前结束`);
    }
  });
}

/**
 * The markers a form (or the API's fields, same names: `intro-start-0`, `outro-end-2` …) asks
 * for, checked against the entry's episodes. `get` gives a field's value (absent: empty).
 */
export function markersFromFields(get: (name: string) => unknown, entry: Pick<TitleEntry, "duration" | "episodes">): MarkerResult {
  const problems: string[] = [];
  const series = entry.episodes !== undefined;
  const read = (scope: number) => {
    const where = scopeName(scope, series);
    const one = (kind: MarkerKind) =>
      markerOf(get(markerField(scope, kind, "start")), get(markerField(scope, kind, "end")), `${where} ${MARKER_NAMES[kind]}`, problems);
    return { intro: one("intro"), outro: one("outro") };
  };
  const title = read(0);
  const episodes = (entry.episodes ?? []).map((_, i) => read(i + 1));
  const edit: MarkerEdit = { ...title, episodes };
  if (problems.length === 0) checkAgainstEpisodes(edit, entry, problems);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, edit };
}

/** The entry with the edit's markers (an absent marker is taken out). */
export function withMarkers(entry: TitleEntry, edit: MarkerEdit): TitleEntry {
  const { intro: _i, outro: _o, ...rest } = entry;
  void _i;
  void _o;
  const set = (m: { intro: Marker | null; outro: Marker | null }) => ({ ...(m.intro ? { intro: m.intro } : {}), ...(m.outro ? { outro: m.outro } : {}) });
  const next: TitleEntry = { ...rest, ...set(edit) };
  if (entry.episodes) {
    next.episodes = entry.episodes.map((e, i) => {
      const { intro: _ei, outro: _eo, ...own } = e;
      void _ei;
      void _eo;
      return { ...own, ...set(edit.episodes[i] ?? { intro: null, outro: null }) };
    });
  }
  return next;
}

/** The form's values for an entry's markers (empty where none is set). */
export function markerFormValues(entry: Pick<TitleEntry, "intro" | "outro" | "episodes">): Record<string, string> {
  const values: Record<string, string> = {};
  const put = (scope: number, m: { intro?: Marker; outro?: Marker }) => {
    for (const kind of MARKER_KINDS) {
      const marker = m[kind];
      values[markerField(scope, kind, "start")] = marker ? formatMarkerTime(marker.start) : "";
      values[markerField(scope, kind, "end")] = marker ? formatMarkerTime(marker.end) : "";
    }
  };
  put(0, entry);
  (entry.episodes ?? []).forEach((e, i) => put(i + 1, e));
  return values;
}

/** What the audit row says an edit set: the title's markers and each episode's own. */
export function markerAudit(edit: MarkerEdit): Record<string, unknown> {
  return {
    intro: edit.intro,
    outro: edit.outro,
    episodes: edit.episodes.map((e, i) => ({ episode: i + 1, ...e })).filter((e) => e.intro || e.outro),
  };
}
