/**
 * The catalogue's data contract: what one entry of catalogue/titles.json may hold. The TypeScript
 * types (shared/catalogue/types.ts) derive from these schemas, and `npm run catalogue -- check`
 * (scripts/catalogue/) and the build run validateCatalogue() over the whole file.
 *
 * Media files are named by number (`N.mp4`, `N.webp`): the streaming contract serves
 * /stream/{N}/… for the progressive /N.mp4 (shared/stream/contract.ts).
 */
import * as v from "valibot";
import { TITLE_ID_PATTERN } from "./title-ids";
import { SUBTITLE_LANGUAGES } from "../stream/contract";

/*
 * Every message is Chinese: `npm run catalogue -- check` prints it after the entry and field
 * ("video_003 rating: 不能大于10") and 视频管理 after the field's name (shared/admin/title-form.ts
 * problemText: 「评分」（rating）: 不能大于10), the same text on both sides.
 */
const MUST_BE_TEXT = "必须是文字";
const MUST_BE_NUMBER = "必须是数字";

/** Media number `n` is claimed twice (the catalogue check and 视频管理's save use the same words). */
export const mediaTaken = (n: string | number, owner: string): string => `媒体编号 ${n} 已被 ${owner} 使用`;

const text = (min: number, max: number) =>
  v.pipe(
    v.string(MUST_BE_TEXT),
    v.check((s) => s.trim() === s, "开头和结尾不能有空格"),
    v.check((s) => !/\p{Cc}/u.test(s), "不能包含控制字符"),
    v.check((s) => [...s].length >= min, min === 1 ? "不能为空" : `不能少于${min}个字`),
    v.check((s) => [...s].length <= max, `不能超过${max}个字`),
  );

const textList = (itemMax: number, maxItems: number) =>
  v.pipe(
    v.array(text(1, itemMax), "必须是文字列表"),
    v.maxLength(maxItems, `最多${maxItems}项`),
    v.check((list) => new Set(list).size === list.length, "不能有重复项"),
  );

/** "HH:MM:SS" (films) or "MM:SS" (episodes), minutes and seconds below 60. */
export const DURATION_PATTERN = /^(?:\d{2}:)?[0-5]\d:[0-5]\d$/;
/** "N.mp4" or "/N.mp4", N from 1 to 999999 (the same pattern as shared/stream/contract.ts). */
export const VIDEO_FILE_PATTERN = /^\/?[1-9]\d{0,5}\.mp4$/;
/** "N.webp" or "/N.webp". */
export const COVER_PATTERN = /^\/?[1-9]\d{0,5}\.webp$/;

const duration = v.pipe(v.string(MUST_BE_TEXT), v.regex(DURATION_PATTERN, '格式应为 "02:08:40" 或 "45:00"'));
const videoFile = v.pipe(v.string(MUST_BE_TEXT), v.regex(VIDEO_FILE_PATTERN, '应为视频文件名，如 "12.mp4"'));
const coverImage = v.pipe(v.string(MUST_BE_TEXT), v.regex(COVER_PATTERN, '应为封面文件名，如 "12.webp"'));

/** A missing required field, or a field the schema does not know (a typo such as "yaer"). */
function keyMessage(issue: v.BaseIssue<unknown>): string {
  return issue.received === "undefined" ? "缺少此项" : "不是已知的字段";
}

/**
 * 线路 (docs/decisions/0086-play-lines.md): a mirror is the base of a host that serves the same
 * /stream/ tree ("https://cdn.example.cn", "https://cdn.example.cn/yingshi"), or a path of this
 * site ("/mirror"); no query, no trailing slash.
 */
export const MIRROR_PATTERN = /^(?:https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?)?(?:\/[A-Za-z0-9._~-]+)*$/;
/** An external line: an absolute http(s) URL of an HLS playlist (.m3u8) or an MP4 file. */
export const LINE_URL_PATTERN = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?\/[^\s#]*?\.(?:m3u8|mp4)(?:\?[^\s#]*)?$/;

export const LineSchema = v.pipe(
  v.strictObject(
    {
      /** The 线路 menu's name (default 线路N). */
      name: v.optional(text(1, 12)),
      mirror: v.optional(
        v.pipe(
          v.string(MUST_BE_TEXT),
          v.regex(MIRROR_PATTERN, '应为主机和路径，如 "https://cdn.example.cn" 或 "/mirror"'),
          v.check((s) => s !== "", "不能为空"),
        ),
      ),
      url: v.optional(v.pipe(v.string(MUST_BE_TEXT), v.regex(LINE_URL_PATTERN, "应为 .m3u8 或 .mp4 文件的 http(s) 地址"))),
    },
    keyMessage,
  ),
  v.check((line) => (line.mirror === undefined) !== (line.url === undefined), '须有 "mirror" 或 "url"（二者只能有一个）'),
);

const lines = v.pipe(v.array(LineSchema, "必须是线路列表"), v.maxLength(8, "最多8条线路"));
/** The media's subtitle languages; absent: zh-CN, what the packers write. */
const subtitles = v.pipe(
  v.array(v.picklist(SUBTITLE_LANGUAGES, `只能是 ${SUBTITLE_LANGUAGES.join("、")} 之一`), "必须是语言列表"),
  v.check((list) => new Set(list).size === list.length, "语言不能重复"),
);

/** 发布状态 (docs/decisions/0074-live-catalogue.md): absent means published. */
export const PUBLICATION_STATES = ["draft", "published", "unpublished"] as const;
export type PublicationState = (typeof PUBLICATION_STATES)[number];
/** A time in China Standard Time, as the file and the 管理后台 write it: "2025-07-01T20:00:00+08:00". */
export const PUBLISH_AT_PATTERN = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\+08:00$/;

/** 连载 states (docs/decisions/0090-serial-schedule.md). */
export const SERIAL_STATES = ["ongoing", "ended"] as const;
export type SerialState = (typeof SERIAL_STATES)[number];

const seconds = v.pipe(v.number(MUST_BE_NUMBER), v.minValue(0, "不能小于0"), v.maxValue(86_400, "不能大于86400"));

/** 片头 / 片尾: where it starts and ends, in seconds from the start of the episode. */
export const MarkerSchema = v.pipe(
  v.strictObject({ start: seconds, end: seconds }, keyMessage),
  v.check((m) => m.end > m.start, "结束时间必须晚于开始时间"),
);
export type Marker = v.InferOutput<typeof MarkerSchema>;

export const EpisodeSchema = v.strictObject(
  {
    /** Shown instead of 第N集 when given (variety shows: 第1期：初次见面). */
    name: v.optional(text(1, 40)),
    videoFile,
    duration,
    /** This episode's subtitle languages (episode 1: else the title's). */
    subtitles: v.optional(subtitles),
    /** This episode's own lines after the title's mirrors (external URLs). */
    lines: v.optional(lines),
    /** This episode's 片头 / 片尾 when it differs from the title's (docs/decisions/0092-intro-outro.md). */
    intro: v.optional(MarkerSchema),
    outro: v.optional(MarkerSchema),
  },
  keyMessage,
);

export const TitleSchema = v.strictObject(
  {
    /** video_001 …: "video_" and 3–7 digits (shared/catalogue/title-ids.ts). */
    id: v.pipe(v.string(MUST_BE_TEXT), v.regex(TITLE_ID_PATTERN, '应为 "video_" 加3到7位数字，如 "video_051"')),
    title: text(1, 60),
    description: text(1, 1000),
    /** Main categories (电影, 电视剧, 综艺, 纪录片), sub-types (网络剧, 短剧, 微电影, 动画) and genres. */
    category: v.pipe(textList(20, 12), v.minLength(1, "至少要有一个分类")),
    tags: textList(20, 20),
    year: v.pipe(v.number(MUST_BE_NUMBER), v.integer("必须是整数年份"), v.minValue(1900, "不能早于1900"), v.maxValue(2100, "不能晚于2100")),
    /** Out of 10, one decimal. */
    rating: v.pipe(
      v.number(MUST_BE_NUMBER),
      v.minValue(0, "不能小于0"),
      v.maxValue(10, "不能大于10"),
      v.check((r) => Math.round(r * 10) === r * 10, "最多一位小数"),
    ),
    duration,
    coverImage,
    /** The title's media; for a series, episode 1's (episodes[0].videoFile is the same file). */
    videoFile,
    /** 地区: 中国大陆, 中国香港, 日本 … */
    area: v.optional(text(1, 20)),
    /** 语言: 国语, 粤语, 英语 … */
    language: v.optional(text(1, 20)),
    /** 导演 */
    directors: v.optional(textList(30, 10)),
    /** 主演 (hosts and guests for variety shows) */
    actors: v.optional(textList(30, 30)),
    /** 别名: other names searched and shown. */
    aliases: v.optional(textList(60, 10)),
    /** 更新状态 as shown on cards: 更新至12集, 全30集, 已完结, HD … */
    status: v.optional(text(1, 20)),
    /** Episodes planned in all, when more than those present (更新至5集 of 16). */
    totalEpisodes: v.optional(v.pipe(v.number(MUST_BE_NUMBER), v.integer("必须是整数"), v.minValue(1, "不能小于1"), v.maxValue(9999, "不能大于9999"))),
    /** 片头 and 片尾 of every episode (an episode may set its own); found by `npm run catalogue -- add` (docs/decisions/0092-intro-outro.md). */
    intro: v.optional(MarkerSchema),
    outro: v.optional(MarkerSchema),
    /** 连载 state of a series: "ongoing" (连载中) or "ended" (已完结); absent, it follows from status and totalEpisodes (worker/feeds/source.ts isEnded). */
    serial: v.optional(v.picklist(SERIAL_STATES, '只能是 "ongoing"（连载中）或 "ended"（已完结）')),
    /** 更新日: the weekdays new episodes come out, 1 (周一) to 7 (周日), China Standard Time (每周五更新: [5]). */
    updateDays: v.optional(
      v.pipe(
        v.array(
          v.pipe(v.number(MUST_BE_NUMBER), v.integer("必须是整数"), v.minValue(1, "只能是1（周一）到7（周日）"), v.maxValue(7, "只能是1（周一）到7（周日）")),
          "必须是星期列表",
        ),
        v.minLength(1, "至少要有一天"),
        v.check((days) => new Set(days).size === days.length, "星期不能重复"),
      ),
    ),
    /** draft (草稿), published (已发布, the default), unpublished (已下架). */
    state: v.optional(v.picklist(PUBLICATION_STATES, '只能是 "draft"（草稿）、"published"（已发布）或 "unpublished"（已下架）')),
    /** 定时发布: a published title goes live at this time (China Standard Time). */
    publishAt: v.optional(v.pipe(v.string(MUST_BE_TEXT), v.regex(PUBLISH_AT_PATTERN, '格式应为 "2025-07-01T20:00:00+08:00"'))),
    /** The live catalogue's version of the title when it was exported (npm run catalogue -- export). */
    version: v.optional(v.pipe(v.number(MUST_BE_NUMBER), v.integer("必须是整数"), v.minValue(1, "不能小于1"))),
    /** Subtitle languages of the title's own media (a series: episode 1, unless it names its own). */
    subtitles: v.optional(subtitles),
    /** 线路 after the site's own: mirrors (every episode) and, for a single title, external URLs. */
    lines: v.optional(lines),
    /** A series or variety show: episode N is episodes[N - 1]. */
    episodes: v.optional(v.pipe(v.array(EpisodeSchema, "必须是剧集列表"), v.minLength(1, "至少要有一集"), v.maxLength(9999, "最多9999集"))),
  },
  keyMessage,
);

export type TitleEntry = v.InferOutput<typeof TitleSchema>;
export type EpisodeEntry = v.InferOutput<typeof EpisodeSchema>;

/** One problem of the catalogue file: which entry, which field, what is wrong. */
export interface CatalogueProblem {
  /** The entry's id, or "#N" (its position from 1) when it has no valid id. */
  entry: string;
  /** Dotted path inside the entry ("episodes.3.videoFile"), or "" for the entry itself. */
  field: string;
  message: string;
}

export type CatalogueResult = { ok: true; titles: TitleEntry[] } | { ok: false; problems: CatalogueProblem[] };

function mediaNumber(file: string): string {
  return file.replace(/^\/+/, "").replace(/\.\w+$/, "");
}

function issueField(issue: v.BaseIssue<unknown>): string {
  const keys = (issue.path ?? []).map((item) => String(item.key));
  // An unknown key's own name is in the message; its path points at it.
  return keys.join(".");
}

/** Rules across fields and entries that the per-entry schema cannot express. */
function crossChecks(titles: ReadonlyArray<{ index: number; entry: TitleEntry }>): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  const ids = new Map<string, number>();
  const media = new Map<string, string>();
  for (const { index, entry } of titles) {
    const add = (field: string, message: string) => problems.push({ entry: entry.id, field, message });
    const seen = ids.get(entry.id);
    if (seen !== undefined) add("id", `重复使用（第${seen + 1}项和第${index + 1}项）`);
    else ids.set(entry.id, index);
    const claim = (file: string, field: string) => {
      const n = mediaNumber(file);
      const owner = media.get(n);
      if (owner !== undefined) add(field, mediaTaken(n, owner));
      else media.set(n, `${entry.id} ${field}`);
    };
    claim(entry.videoFile, "videoFile");
    if (mediaNumber(entry.coverImage) !== mediaNumber(entry.videoFile)) add("coverImage", `必须与视频文件同号（${mediaNumber(entry.videoFile)}.webp）`);
    if (entry.episodes) {
      const first = entry.episodes[0];
      if (mediaNumber(first.videoFile) !== mediaNumber(entry.videoFile)) add("episodes.0.videoFile", `第1集必须是本视频自己的视频文件（${entry.videoFile}）`);
      entry.episodes.slice(1).forEach((episode, i) => claim(episode.videoFile, `episodes.${i + 1}.videoFile`));
      if (entry.totalEpisodes !== undefined && entry.totalEpisodes < entry.episodes.length)
        add("totalEpisodes", `为${entry.totalEpisodes}，但已列出${entry.episodes.length}集`);
    } else {
      if (entry.totalEpisodes !== undefined) add("totalEpisodes", "已填写，但此视频没有剧集");
      if (entry.serial !== undefined) add("serial", "已填写，但此视频没有剧集");
      if (entry.updateDays !== undefined) add("updateDays", "已填写，但此视频没有剧集");
    }
    if (entry.episodes)
      entry.lines?.forEach((line, i) => {
        if (line.url !== undefined) add(`lines.${i}.url`, "剧集的外部地址应写在该集的线路里（episodes.N.lines）");
      });
  }
  return problems;
}

/** Validates a parsed catalogue file: every problem of every entry, or the typed titles. */
export function validateCatalogue(data: unknown): CatalogueResult {
  if (!Array.isArray(data)) return { ok: false, problems: [{ entry: "(file)", field: "", message: "必须是视频的 JSON 列表" }] };
  const problems: CatalogueProblem[] = [];
  const valid: Array<{ index: number; entry: TitleEntry }> = [];
  data.forEach((raw: unknown, index) => {
    const result = v.safeParse(TitleSchema, raw);
    if (result.success) {
      valid.push({ index, entry: result.output });
      return;
    }
    const rawId = typeof raw === "object" && raw !== null && "id" in raw && typeof raw.id === "string" && raw.id ? raw.id : `#${index + 1}`;
    for (const issue of result.issues) problems.push({ entry: rawId, field: issueField(issue), message: issue.message });
  });
  problems.push(...crossChecks(valid));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, titles: valid.map((t) => t.entry) };
}

/** "video_003 episodes.2.videoFile: 应为视频文件名，如 "12.mp4"" */
export function formatProblem(problem: CatalogueProblem): string {
  return `${problem.entry}${problem.field ? " " + problem.field : ""}: ${problem.message}`;
}
