/**
 * MacCMS v10 provide API (苹果CMS `/api.php/provide/vod/`): request parsing and the JSON and XML
 * answers, as pure functions. Field names, types and separators follow docs/provide-api.md.
 */
import { normaliseMediaPath } from "../../shared/catalogue/categories";
import type { Video } from "../../shared/catalogue/types";
import { masterPlaylistPath, mediaNumberOf } from "../../shared/stream/contract";
import { playLines } from "../../shared/playback/lines";
import { categoryName, type FeedCategory } from "./categories";
import { updateDaysText, vodWeekday } from "../../shared/schedule";
import { isEnded, type FeedTitle } from "./source";

/** MacCMS's default page size and the most rows a page may hold. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** The most distinct vod_ids one request may name (ids=…): more is a 400, never a silent cut. */
export const MAX_IDS = 100;

/** Source codes: the HLS master playlist first (what apps should play), the progressive MP4 second. */
export const PLAY_SOURCES = ["m3u8", "mp4"] as const;
export type PlaySource = (typeof PLAY_SOURCES)[number];

export interface ProvideRequest {
  /** list: short rows and the categories; detail (also ac=videolist): full rows. */
  mode: "list" | "detail";
  format: "json" | "xml";
  page: number;
  pageSize: number;
  typeId?: number;
  keyword?: string;
  hours?: number;
  /** Title ids asked for with ids=1,2 (video_001, video_002), each once (1 and 01 are one). Over MAX_IDS: the answer is a 400. */
  ids?: string[];
  yearFrom?: number;
  yearTo?: number;
  ended?: boolean;
  /** Only these sources in play lists (from=m3u8). */
  sources: readonly PlaySource[];
  /** No parameter at all: MacCMS answers the first list page with the categories. */
  bare: boolean;
}

const positive = (raw: string | null, max: number): number | undefined => {
  if (raw === null || !/^\s*\d{1,9}\s*$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= 1 && n <= max ? n : undefined;
};

/** A vod_id (a title's number) back to the title id: 1 → video_001. */
export function titleIdOf(vodId: number): string {
  return `video_${String(vodId).padStart(3, "0")}`;
}

/** A title's vod_id: video_001 → 1. */
export function vodIdOf(video: Video): number {
  return Number.parseInt(video.id.replace(/^video_/, ""), 10);
}

/**
 * The request as MacCMS reads it: unknown or malformed values are ignored (an app sending
 * `pg=abc` gets page 1), pagesize is clamped to 1–100. `atXml` is the path form …/at/xml/.
 */
export function parseProvideRequest(params: URLSearchParams, atXml = false): ProvideRequest {
  const get = (name: string) => params.get(name);
  const ac = (get("ac") ?? "").trim().toLowerCase();
  const year = /^\s*(\d{4})(?:\s*-\s*(\d{4}))?\s*$/.exec(get("year") ?? "");
  const [yearFrom, yearTo] = year ? [Number(year[1]), Number(year[2] ?? year[1])].sort((a, b) => a - b) : [undefined, undefined];
  const isend = (get("isend") ?? "").trim();
  const ids = (get("ids") ?? "")
    .split(",")
    .map((s) => positive(s, 9_999_999))
    .filter((n): n is number => n !== undefined)
    .map(titleIdOf);
  const from = (get("from") ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s): s is PlaySource => (PLAY_SOURCES as readonly string[]).includes(s));
  const keyword = (get("wd") ?? "").trim().slice(0, 50);
  const rawSize = get("pagesize") ?? get("limit");
  const size = rawSize !== null && /^\s*\d{1,9}\s*$/.test(rawSize) ? Number(rawSize) : 0;
  return {
    mode: ac === "detail" || ac === "videolist" ? "detail" : "list",
    format: atXml || (get("at") ?? "").trim().toLowerCase() === "xml" ? "xml" : "json",
    page: positive(get("pg") ?? get("page"), 1_000_000) ?? 1,
    pageSize: size >= 1 ? Math.min(size, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE,
    typeId: positive(get("t"), 1_000_000),
    keyword: keyword || undefined,
    hours: positive(get("h"), 1_000_000),
    ids: ids.length > 0 ? [...new Set(ids)] : undefined,
    yearFrom,
    yearTo,
    ended: isend === "1" ? true : isend === "0" ? false : undefined,
    sources: from.length > 0 ? [...new Set(from)] : PLAY_SOURCES,
    bare: [...params.keys()].length === 0,
  };
}

/** A separator inside a name would split the list: `$` and `#` become their full-width forms. */
function safeName(name: string): string {
  return name.replace(/\$/g, "＄").replace(/#/g, "＃").replace(/\s+/g, " ").trim();
}

/** 正片 for a film; the episode's own name or 第01集 for a series. */
export function episodeNames(video: Video): string[] {
  if (!video.episodes) return ["正片"];
  const width = Math.max(2, String(video.episodes.length).length);
  return video.episodes.map((episode, i) => safeName(episode.name ?? `第${String(i + 1).padStart(width, "0")}集`));
}

function episodeFiles(video: Video): string[] {
  return video.episodes ? video.episodes.map((e) => e.videoFile) : [video.videoFile];
}

function sourceUrl(source: PlaySource, videoFile: string, origin: string): string {
  if (source === "mp4") return origin + normaliseMediaPath(videoFile);
  return origin + masterPlaylistPath(mediaNumberOf(videoFile) ?? "0");
}

export interface PlayLists {
  /** vod_play_from: source codes joined with $$$. */
  from: string;
  /** vod_play_url: per source `name$url` joined with #, sources joined with $$$. */
  url: string;
  /** vod_play_server and vod_play_note, one (empty) entry per source. */
  server: string;
  note: string;
}

/** One more 线路 of a title as a source: its code (line2m3u8, line3mp4) and `name$url` per episode that has it. */
interface LineSource {
  code: string;
  items: string[];
}

/**
 * The title's other 线路 (shared/playback/lines.ts), each its own source after the site's own
 * two: `line{N}m3u8` or `line{N}mp4` (N the line's number in the player's menu, the kind after it,
 * as MacCMS codes end), only for the kinds `sources` asks for. A path of this site is made absolute.
 */
function lineSources(video: Video, origin: string, sources: readonly PlaySource[]): LineSource[] {
  const names = episodeNames(video);
  const byIndex = new Map<number, LineSource>();
  for (let e = 1; e <= names.length; e++) {
    for (const line of playLines(video, e).slice(1)) {
      const kind: PlaySource = line.kind === "mp4" ? "mp4" : "m3u8";
      if (!sources.includes(kind)) continue;
      const source = byIndex.get(line.index) ?? { code: `line${line.index + 1}${kind}`, items: [] };
      source.items.push(`${names[e - 1]}$${line.origin ? line.src : origin + line.src}`);
      byIndex.set(line.index, source);
    }
  }
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, source]) => source);
}

/** The source codes of a title: the site's own (m3u8, mp4), then one per other 线路. */
export function sourceCodes(video: Video, sources: readonly PlaySource[]): string[] {
  return [...sources, ...lineSources(video, "", sources).map((s) => s.code)];
}

/** Every episode of every source as absolute URLs: the HLS master playlist, then the MP4, then each other 线路. */
export function playLists(video: Video, origin: string, sources: readonly PlaySource[] = PLAY_SOURCES): PlayLists {
  const names = episodeNames(video);
  const files = episodeFiles(video);
  const own = sources.map((source) => ({ code: String(source), items: files.map((file, i) => `${names[i]}$${sourceUrl(source, file, origin)}`) }));
  const all = [...own, ...lineSources(video, origin, sources)];
  return {
    from: all.map((s) => s.code).join("$$$"),
    url: all.map((s) => s.items.join("#")).join("$$$"),
    server: all.map(() => "no").join("$$$"),
    note: all.map(() => "").join("$$$"),
  };
}

/** "Y-m-d H:i:s" in China Standard Time (UTC+8), as MacCMS sites show it. */
export function vodTime(ms: number): string {
  return new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
}

/**
 * 更新至12集 / 全30集 / HD: the title's status, else what its episodes say; a series still 连载
 * adds its update days (更新至5集 每周五更新).
 */
export function remarksOf(video: Video): string {
  if (!video.episodes) return video.status ?? "HD";
  const ended = isEnded(video);
  const base = video.status ?? (ended ? `全${video.episodes.length}集` : `更新至${video.episodes.length}集`);
  const days = ended ? "" : updateDaysText(video.updateDays);
  return days ? `${base} ${days}` : base;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The genres: the title's categories except the category it is filed under. */
function genresOf(title: FeedTitle, categories: readonly FeedCategory[]): string[] {
  const main = categoryName(title.typeId, categories);
  const names = new Set(categories.map((c) => c.name));
  return title.video.category.filter((c) => c !== main && !names.has(c));
}

export interface ListRow {
  vod_id: number;
  vod_name: string;
  type_id: number;
  type_name: string;
  vod_en: string;
  vod_time: string;
  vod_remarks: string;
  vod_play_from: string;
}

export interface DetailRow extends ListRow {
  vod_sub: string;
  vod_pic: string;
  vod_actor: string;
  vod_director: string;
  vod_area: string;
  vod_lang: string;
  vod_year: string;
  vod_class: string;
  vod_tag: string;
  vod_blurb: string;
  vod_content: string;
  vod_serial: string;
  vod_total: number;
  vod_isend: number;
  /** The update days' characters, "五" or "一,四" ("" for none, or once the series has ended). */
  vod_weekday: string;
  /** The viewers' average once enough viewers rated (shared/ratings.ts RATING_MIN_COUNT), else the catalogue's rating. */
  vod_score: string;
  /** How many viewers' ratings `vod_score` is the average of: 0 while it is the catalogue's rating. */
  vod_score_num: number;
  vod_hits: number;
  vod_duration: string;
  vod_play_server: string;
  vod_play_note: string;
  vod_play_url: string;
}

export interface RowContext {
  origin: string;
  categories: readonly FeedCategory[];
  sources: readonly PlaySource[];
  /** Total plays per title id (title_hits); a title never played has 0. */
  hits: ReadonlyMap<string, number>;
  /** The viewers' average and count per title id where enough viewers rated (title_rating_totals.score is set). */
  viewerScores: ReadonlyMap<string, { score: number; count: number }>;
}

export function listRow(title: FeedTitle, ctx: RowContext): ListRow {
  const { video } = title;
  return {
    vod_id: vodIdOf(video),
    vod_name: video.title,
    type_id: title.typeId,
    type_name: categoryName(title.typeId, ctx.categories),
    vod_en: title.pinyin,
    vod_time: vodTime(title.updatedAt),
    vod_remarks: remarksOf(video),
    vod_play_from: sourceCodes(video, ctx.sources).join(","),
  };
}

export function detailRow(title: FeedTitle, ctx: RowContext): DetailRow {
  const { video } = title;
  const play = playLists(video, ctx.origin, ctx.sources);
  const episodes = video.episodes?.length ?? 1;
  return {
    ...listRow(title, ctx),
    vod_play_from: play.from,
    vod_sub: (video.aliases ?? []).join(","),
    vod_pic: ctx.origin + normaliseMediaPath(video.coverImage),
    vod_actor: (video.actors ?? []).join(","),
    vod_director: (video.directors ?? []).join(","),
    vod_area: video.area ?? "",
    vod_lang: video.language ?? "",
    vod_year: String(video.year),
    vod_class: genresOf(title, ctx.categories).join(","),
    vod_tag: video.tags.join(","),
    vod_blurb: video.description,
    vod_content: `<p>${escapeHtml(video.description)}</p>`,
    vod_serial: String(video.episodes ? episodes : 0),
    vod_total: video.totalEpisodes ?? (video.episodes ? episodes : 1),
    vod_isend: isEnded(video) ? 1 : 0,
    vod_weekday: isEnded(video) ? "" : vodWeekday(video.updateDays),
    vod_score: (ctx.viewerScores.get(video.id)?.score ?? video.rating).toFixed(1),
    vod_score_num: ctx.viewerScores.get(video.id)?.count ?? 0,
    vod_hits: ctx.hits.get(video.id) ?? 0,
    vod_duration: video.duration,
    vod_play_server: play.server,
    vod_play_note: play.note,
    vod_play_url: play.url,
  };
}

export interface ClassRow {
  type_id: number;
  type_pid: number;
  type_name: string;
}

export const classRows = (categories: readonly FeedCategory[]): ClassRow[] => categories.map((c) => ({ type_id: c.id, type_pid: c.pid, type_name: c.name }));

export interface ProvidePage {
  page: number;
  pageSize: number;
  total: number;
}

export const pageCountOf = ({ total, pageSize }: ProvidePage) => Math.max(1, Math.ceil(total / pageSize));

export interface JsonAnswer {
  code: 1;
  msg: "数据列表";
  page: number;
  pagecount: number;
  limit: string;
  total: number;
  list: Array<ListRow | DetailRow>;
  class?: ClassRow[];
}

export function jsonAnswer(page: ProvidePage, list: Array<ListRow | DetailRow>, categories: readonly FeedCategory[] | null): JsonAnswer {
  const answer: JsonAnswer = { code: 1, msg: "数据列表", page: page.page, pagecount: pageCountOf(page), limit: String(page.pageSize), total: page.total, list };
  if (categories) answer.class = classRows(categories);
  return answer;
}

/** XML 1.0 forbids most control characters: they are dropped. */
const xmlChars = (s: string) => s.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "");

/** Text for an XML element or attribute. */
export function xmlText(s: string): string {
  return xmlChars(s).replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** A CDATA section that stays one even when the text holds "]]>". */
export function cdata(s: string): string {
  return `<![CDATA[${xmlChars(s).replace(/]]>/g, "]]]]><![CDATA[>")}]]>`;
}

function videoXml(row: ListRow | DetailRow): string {
  const head = `<last>${xmlText(row.vod_time)}</last><id>${row.vod_id}</id><tid>${row.type_id}</tid><name>${cdata(row.vod_name)}</name><type>${xmlText(row.type_name)}</type>`;
  if (!("vod_play_url" in row)) return `<video>${head}<dt>${xmlText(row.vod_play_from)}</dt><note>${cdata(row.vod_remarks)}</note></video>`;
  const froms = row.vod_play_from.split("$$$");
  const urls = row.vod_play_url.split("$$$");
  const dl = froms.map((from, i) => `<dd flag="${xmlText(from)}">${cdata(urls[i] ?? "")}</dd>`).join("");
  return (
    `<video>${head}<pic>${xmlText(row.vod_pic)}</pic><lang>${xmlText(row.vod_lang)}</lang><area>${xmlText(row.vod_area)}</area>` +
    `<year>${xmlText(row.vod_year)}</year><state>${xmlText(row.vod_serial)}</state><note>${cdata(row.vod_remarks)}</note>` +
    `<actor>${cdata(row.vod_actor)}</actor><director>${cdata(row.vod_director)}</director><dl>${dl}</dl><des>${cdata(row.vod_content)}</des></video>`
  );
}

export function xmlAnswer(page: ProvidePage, list: Array<ListRow | DetailRow>, categories: readonly FeedCategory[] | null): string {
  const attrs = `page="${page.page}" pagecount="${pageCountOf(page)}" pagesize="${page.pageSize}" recordcount="${page.total}"`;
  const classXml = categories ? `<class>${categories.map((c) => `<ty id="${c.id}">${xmlText(c.name)}</ty>`).join("")}</class>` : "";
  return `<?xml version="1.0" encoding="utf-8"?>\n<rss version="5.1"><list ${attrs}>${list.map(videoXml).join("")}</list>${classXml}</rss>`;
}
