/**
 * 视频管理's edit form (worker/admin/views/Titles.tsx) as a catalogue entry, and back: the form
 * only gathers the fields; shared/catalogue/schema.ts (validateCatalogue, the rules of
 * `npm run catalogue -- check`) decides what is valid and words every problem. Pure.
 */
import type { CatalogueProblem, TitleEntry } from "../catalogue/schema";
import { fromLocalInput, shanghaiTime, toLocalInput } from "../catalogue/publication";

/** The form's field names and what an operator reads (问题 are shown as 「标题」 must not be empty). */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  id: "编号",
  title: "标题",
  description: "简介",
  category: "分类",
  tags: "标签",
  year: "年份",
  rating: "评分",
  duration: "时长",
  coverImage: "封面文件",
  videoFile: "视频文件",
  area: "地区",
  language: "语言",
  directors: "导演",
  actors: "主演",
  aliases: "别名",
  status: "更新状态",
  totalEpisodes: "总集数",
  serial: "连载状态",
  updateDays: "更新日",
  episodes: "剧集",
  lines: "线路",
  subtitles: "字幕",
  state: "发布状态",
  publishAt: "定时发布时间",
};

const LIST_SEPARATOR = /[,，、\n]/;

const list = (text: string): string[] =>
  text
    .split(LIST_SEPARATOR)
    .map((s) => s.trim())
    .filter(Boolean);

/** A number field: absent when empty, the number when it is one, else the text (the schema words the problem). */
function numberField(text: string): number | string | undefined {
  const t = text.trim();
  if (!t) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

const WEEKDAY_CHARS = "一二三四五六日";

/** 更新日 as written in the form ("五", "一，四", "周一、周四", "1, 4"; 天 is 日): 1–7, or the text the schema refuses. */
export function updateDaysFromText(text: string): Array<number | string> | undefined {
  const items = list(text.replaceAll("周", "").replaceAll("星期", "").replaceAll("天", "日"));
  if (items.length === 0) return undefined;
  return items.map((item) => {
    const char = WEEKDAY_CHARS.indexOf(item);
    if (item.length === 1 && char >= 0) return char + 1;
    const n = Number(item);
    return /^\d+$/.test(item) ? n : item;
  });
}

export const updateDaysToText = (days: readonly number[] | undefined): string => (days ?? []).map((d) => WEEKDAY_CHARS[d - 1] ?? String(d)).join("，");

/** One episode a line: "12.mp4 | 45:00" or "12.mp4 | 45:00 | 第1期：初次见面". */
export function episodesFromLines(text: string): Array<Record<string, string>> | undefined {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length === 0) return undefined;
  return lines.map((line) => {
    const [videoFile = "", duration = "", ...name] = line.split("|").map((p) => p.trim());
    const joined = name.join("|").trim();
    return { videoFile, duration, ...(joined ? { name: joined } : {}) };
  });
}

export function episodesToLines(entry: Pick<TitleEntry, "episodes">): string {
  return (entry.episodes ?? []).map((e) => [e.videoFile.replace(/^\//, ""), e.duration, ...(e.name ? [e.name] : [])].join(" | ")).join("\n");
}

/** An address that names a media file (an external line) rather than a mirror of the /stream/ tree. */
const MEDIA_FILE = /\.(?:m3u8|mp4)(?:\?.*)?$/;

/**
 * 线路 one a line: "地址" or "名称 | 地址". An address of an .m3u8 or .mp4 file is an external line
 * (`url`), any other one a mirror serving the /stream/ tree (`mirror`: a host, or a path of this site).
 */
export function linesFromText(text: string): Array<Record<string, string>> | undefined {
  const rows = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  if (rows.length === 0) return undefined;
  return rows.map((row) => {
    const parts = row.split("|").map((p) => p.trim());
    const address = parts.pop() ?? "";
    const name = parts.join("|").trim();
    return { ...(name ? { name } : {}), ...(MEDIA_FILE.test(address) ? { url: address } : { mirror: address }) };
  });
}

export function linesToText(entry: Pick<TitleEntry, "lines">): string {
  return (entry.lines ?? []).map((l) => [...(l.name ? [l.name] : []), l.mirror ?? l.url ?? ""].join(" | ")).join("\n");
}

/** What an episode holds that the form's rows do not show (kept with its video file). */
const UNSHOWN_EPISODE_FIELDS = ["subtitles", "lines", "intro", "outro"] as const;

/**
 * What the form does not show, kept from the saved entry: the title's 字幕 languages (set by
 * uploads), its 片头 and 片尾, and each episode's own 字幕, 线路, 片头 and 片尾 (matched by its
 * video file, so adding, removing and reordering rows keeps them with their media).
 */
export function keepUnshownFields(formed: Record<string, unknown>, saved: TitleEntry): Record<string, unknown> {
  const next = { ...formed };
  if (saved.subtitles !== undefined) next.subtitles = saved.subtitles;
  if (saved.intro !== undefined) next.intro = saved.intro;
  if (saved.outro !== undefined) next.outro = saved.outro;
  const file = (f: unknown) => (typeof f === "string" ? f.replace(/^\/+/, "") : "");
  const byFile = new Map((saved.episodes ?? []).map((e) => [file(e.videoFile), e]));
  if (Array.isArray(next.episodes)) {
    next.episodes = (next.episodes as Array<Record<string, unknown>>).map((e) => {
      const old = byFile.get(file(e.videoFile));
      const kept = Object.fromEntries(UNSHOWN_EPISODE_FIELDS.flatMap((key) => (old?.[key] !== undefined ? [[key, old[key]]] : [])));
      return { ...e, ...kept };
    });
  }
  return next;
}

/** The state the form asks for, from its 发布状态 choice and the time of 定时发布. */
export type FormState = "draft" | "published" | "scheduled" | "unpublished";

/**
 * The entry the form describes (unvalidated). `get` reads a field ("" when absent). An optional
 * text left empty is absent; lists are written one per line or separated by commas.
 */
export function entryFromForm(get: (name: string) => string): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  const text = (name: string, required = false) => {
    const value = get(name).trim();
    if (value || required) entry[name] = value;
  };
  text("id", true);
  text("title", true);
  entry.description = get("description").trim();
  entry.category = list(get("category"));
  entry.tags = list(get("tags"));
  entry.year = numberField(get("year"));
  entry.rating = numberField(get("rating"));
  text("duration", true);
  text("coverImage", true);
  text("videoFile", true);
  for (const name of ["area", "language", "status"]) text(name);
  for (const name of ["directors", "actors", "aliases"]) {
    const items = list(get(name));
    if (items.length > 0) entry[name] = items;
  }
  const total = numberField(get("totalEpisodes"));
  if (total !== undefined) entry.totalEpisodes = total;
  const serial = get("serial").trim();
  if (serial) entry.serial = serial;
  const days = updateDaysFromText(get("updateDays"));
  if (days) entry.updateDays = days;
  const episodes = episodesFromLines(get("episodes"));
  if (episodes) entry.episodes = episodes;
  const lines = linesFromText(get("lines"));
  if (lines) entry.lines = lines;
  const state = get("state") as FormState;
  if (state === "draft" || state === "unpublished") entry.state = state;
  else if (state === "scheduled") {
    const at = fromLocalInput(get("publishAt").trim());
    entry.publishAt = at === null ? get("publishAt").trim() || "（未填写）" : shanghaiTime(at);
  } else if (state !== "published" && state) entry.state = state;
  for (const key of Object.keys(entry)) if (entry[key] === undefined) delete entry[key];
  return entry;
}

/** The form's values for an entry (the edit screen), state and time included. */
export function formOfEntry(entry: TitleEntry, shown: FormState, publishAt: number): Record<string, string> {
  const join = (items: readonly string[] | undefined) => (items ?? []).join("，");
  return {
    id: entry.id,
    title: entry.title,
    description: entry.description,
    category: join(entry.category),
    tags: join(entry.tags),
    year: String(entry.year),
    rating: String(entry.rating),
    duration: entry.duration,
    coverImage: entry.coverImage.replace(/^\//, ""),
    videoFile: entry.videoFile.replace(/^\//, ""),
    area: entry.area ?? "",
    language: entry.language ?? "",
    directors: join(entry.directors),
    actors: join(entry.actors),
    aliases: join(entry.aliases),
    status: entry.status ?? "",
    totalEpisodes: entry.totalEpisodes === undefined ? "" : String(entry.totalEpisodes),
    serial: entry.serial ?? "",
    updateDays: updateDaysToText(entry.updateDays),
    episodes: episodesToLines(entry),
    lines: linesToText(entry),
    state: shown,
    publishAt: publishAt > 0 ? toLocalInput(publishAt) : "",
  };
}

/** A problem as the form shows it: 「标题」（title）must not be empty. */
export function problemText(problem: CatalogueProblem): string {
  if (!problem.field) return problem.message;
  const [head, ...rest] = problem.field.split(".");
  const label = FIELD_LABELS[head] ?? head;
  const where = head === "episodes" && rest[0] !== undefined ? `第${Number(rest[0]) + 1}集${rest[1] ? " " + rest[1] : ""}` : rest.join(".");
  return `「${label}」${where ? `（${where}）` : ""}${problem.field.includes(".") ? "" : `（${head}）`}: ${problem.message}`;
}
