/**
 * 举报: what a viewer may report and why, the checks a report passes and the Chinese messages of
 * every answer. Pure: the worker (worker/reports/api.ts), the dialog (shared/components/ReportDialog.tsx)
 * and the 管理后台's queue (worker/admin/reports.ts) share it. The table is generic over the kind
 * (migrations/0015_reports.sql).
 */
import { isTitleId } from "../catalogue/title-ids";

/** What can be reported: a 弹幕, a playback problem (报错), a comment of the 评论区 (worker/comments/). */
export const REPORT_KINDS = ["danmaku", "playback", "comment"] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const KIND_NAMES: Record<ReportKind, string> = { danmaku: "弹幕", playback: "播放问题", comment: "评论" };

export const PLAYBACK_REASONS = {
  unplayable: "无法播放",
  stutter: "卡顿",
  out_of_sync: "音画不同步",
  other: "其他",
} as const;

export const DANMAKU_REASONS = {
  illegal: "违法违规",
  vulgar: "色情低俗",
  abuse: "辱骂攻击",
  spam: "垃圾广告",
  spoiler: "剧透",
  other: "其他",
} as const;

export const REASONS: Record<ReportKind, Record<string, string>> = { playback: PLAYBACK_REASONS, danmaku: DANMAKU_REASONS, comment: DANMAKU_REASONS };

/** The Chinese name of a reason of `kind` (the code itself when unknown). */
export const reasonName = (kind: string, reason: string): string => (REASONS[kind as ReportKind] as Record<string, string> | undefined)?.[reason] ?? reason;

export const REPORT_STATUSES = ["open", "resolved", "dismissed"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export const STATUS_NAMES: Record<ReportStatus, string> = { open: "待处理", resolved: "已处理", dismissed: "已驳回" };

/** Longest note, in characters (code points) after trimming. */
export const MAX_NOTE_CHARS = 200;
/** Reports a network may send in an hour; an account has the same limit wherever it is. */
export const REPORTS_PER_HOUR = 10;
export const REPORT_WINDOW_MS = 3_600_000;

export const REPORT_MESSAGES = {
  sent: "举报已提交，感谢你的反馈",
  duplicate: "你已经举报过，我们会尽快处理",
  signInForDanmaku: "请先登录后再举报弹幕",
  signInForComment: "请先登录后再举报评论",
  badKind: "举报类型无效",
  badReason: "请选择举报原因",
  noteTooLong: `补充说明不能超过 ${MAX_NOTE_CHARS} 个字`,
  noteControl: "补充说明包含不允许的字符",
  badEpisode: "集数无效",
  unknownVideo: "视频不存在",
  unknownComment: "这条弹幕不存在或已被删除",
  unknownCommentItem: "这条评论不存在或已被删除",
  badRequest: "请求格式有误",
  tooMany: "举报太频繁，请稍后再试",
  foreign: "请求来源不明，已拒绝",
  unavailable: "举报暂时无法提交，请稍后再试",
  failed: "提交失败，请检查网络后重试",
} as const;

export type ReportMessage = keyof typeof REPORT_MESSAGES;

/** A report as checked: what the worker then ties to a title (and a 弹幕). */
export interface ReportDraft {
  kind: ReportKind;
  titleId: string;
  episode: number;
  reason: string;
  note: string | null;
  /** A 弹幕's id and time in its room (kind 'danmaku'). */
  comment: { id: number; time: number } | null;
  /** A comment's id (kind 'comment'). */
  commentId: number | null;
}

// C0/C1 controls, the line/paragraph separators and bidi overrides; a note may have new lines.
const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

export type DraftResult = { ok: true; draft: ReportDraft } | { ok: false; code: ReportMessage };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Checks a report's body: `{ kind, title, episode?, reason, note?, comment?, time? }` (`comment`
 * and `time` for a 弹幕, `comment` — its id — for a comment). Which title and 弹幕 exist is the worker's to check.
 */
export function checkReport(body: unknown): DraftResult {
  if (!isRecord(body)) return { ok: false, code: "badRequest" };
  const kind = body.kind;
  if (typeof kind !== "string" || !(REPORT_KINDS as readonly string[]).includes(kind)) return { ok: false, code: "badKind" };
  const reportKind = kind as ReportKind;
  if (!isTitleId(body.title)) return { ok: false, code: "unknownVideo" };
  const episode = body.episode === undefined ? 1 : body.episode;
  if (typeof episode !== "number" || !Number.isInteger(episode) || episode < 1 || episode > 9999) return { ok: false, code: "badEpisode" };
  if (typeof body.reason !== "string" || !Object.hasOwn(REASONS[reportKind], body.reason)) return { ok: false, code: "badReason" };
  let note: string | null = null;
  if (body.note !== undefined && body.note !== null) {
    if (typeof body.note !== "string") return { ok: false, code: "badRequest" };
    const trimmed = body.note.trim();
    if ([...trimmed].length > MAX_NOTE_CHARS) return { ok: false, code: "noteTooLong" };
    if (CONTROL.test(trimmed.replace(/\r?\n/g, ""))) return { ok: false, code: "noteControl" };
    note = trimmed || null;
  }
  let comment: ReportDraft["comment"] = null;
  if (reportKind === "danmaku") {
    const { comment: id, time } = body;
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) return { ok: false, code: "unknownComment" };
    if (typeof time !== "number" || !Number.isFinite(time) || time < 0 || time > 86_400) return { ok: false, code: "unknownComment" };
    comment = { id, time };
  }
  let commentId: number | null = null;
  if (reportKind === "comment") {
    if (typeof body.comment !== "number" || !Number.isSafeInteger(body.comment) || body.comment < 1) return { ok: false, code: "unknownCommentItem" };
    commentId = body.comment;
  }
  return { ok: true, draft: { kind: reportKind, titleId: body.title, episode, reason: body.reason, note, comment, commentId } };
}
