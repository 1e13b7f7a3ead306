/**
 * Uploaded subtitles (SRT, ASS/SSA or WebVTT) as WebVTT cues: the 管理后台's upload
 * (worker/admin/subtitles.ts) and `npm run catalogue -- add --subtitles` (scripts/catalogue/add.ts)
 * both convert with this. Text and times are kept; styling is dropped (ASS override blocks and
 * styles, SRT <font> tags, WebVTT cue settings), so every file becomes plain cue text that the
 * player draws itself. Errors are worded for the operator, in Chinese. Pure.
 */
import { parseVtt, VttError, writeVtt, type VttCue } from "./webvtt";

export type SubtitleFormat = "srt" | "ass" | "vtt";

export const SUBTITLE_FORMAT_NAMES: Readonly<Record<SubtitleFormat, string>> = { srt: "SRT", ass: "ASS", vtt: "WebVTT" };

export type ConvertedSubtitles = { ok: true; format: SubtitleFormat; cues: VttCue[] } | { ok: false; message: string };

/** The most cues one file may hold (a feature film has ~1,500; this leaves room for karaoke-style files). */
export const MAX_SUBTITLE_CUES = 20_000;

const fail = (message: string): ConvertedSubtitles => ({ ok: false, message });

/** The format of a subtitle file, from its content (a file name can lie). */
export function detectSubtitleFormat(text: string): SubtitleFormat | null {
  const head = text.replace(/^\uFEFF/, "").trimStart();
  if (/^WEBVTT(?:[ \t\r\n]|$)/.test(head)) return "vtt";
  if (/^\[Script Info\]/im.test(head) || /^\[(?:V4\+?|V4) Styles\]/im.test(head) || /^Dialogue:/m.test(head)) return "ass";
  if (/\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}/.test(head)) return "srt";
  return null;
}

/** Cue text as plain WebVTT text: no markup, entities escaped, no blank lines or "-->". */
function plainText(lines: readonly string[]): string {
  return lines
    .map((line) =>
      line
        .replace(/<[^>]*>/g, "")
        .replace(/&/g, "&amp;")
        .replace(/</g, "&lt;")
        .replace(/>/g, "&gt;")
        .replace(/-->/g, "→")
        .trim(),
    )
    .filter((line) => line !== "")
    .join("\n");
}

/** "01:02:03,456" / "1:02:03.45" / "02:03.456" into seconds, or null. */
function clockTime(text: string): number | null {
  const match = /^(?:(\d{1,3}):)?(\d{1,2}):(\d{1,2})(?:[,.](\d{1,3}))?$/.exec(text.trim());
  if (!match) return null;
  const [, h, m, s, frac = "0"] = match;
  if (Number(m) > 59 || Number(s) > 59) return null;
  return (h ? Number(h) * 3600 : 0) + Number(m) * 60 + Number(s) + Number(frac.padEnd(3, "0")) / 1000;
}

function parseSrt(text: string): ConvertedSubtitles {
  const cues: VttCue[] = [];
  const blocks = text.split(/\n[ \t]*\n/);
  let number = 0;
  for (const block of blocks) {
    const lines = block.split("\n").filter((l) => l.trim() !== "");
    if (lines.length === 0) continue;
    number++;
    const at = lines.findIndex((l) => l.includes("-->"));
    if (at < 0 || at > 1) return fail(`第 ${number} 条字幕没有时间轴（应为 00:00:01,000 --> 00:00:03,000）：${lines[0].slice(0, 40)}`);
    const [from, to = ""] = lines[at].split("-->");
    const start = clockTime(from);
    const end = clockTime(to.trim().split(/\s+/)[0]);
    if (start === null || end === null) return fail(`第 ${number} 条字幕的时间无法识别：${lines[at].trim().slice(0, 60)}`);
    if (end <= start) return fail(`第 ${number} 条字幕的结束时间不晚于开始时间：${lines[at].trim().slice(0, 60)}`);
    // {\an8} and similar ASS-style tags that some SRT files carry.
    const body = plainText(lines.slice(at + 1).map((l) => l.replace(/\{\\[^}]*\}/g, "")));
    if (body !== "") cues.push({ start, end, text: body });
  }
  return { ok: true, format: "srt", cues };
}

function parseAss(text: string): ConvertedSubtitles {
  const cues: VttCue[] = [];
  let section = "";
  let format: string[] | null = null;
  let number = 0;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const heading = /^\[(.+)\]$/.exec(line);
    if (heading) {
      section = heading[1].toLowerCase();
      format = null;
      continue;
    }
    if (section !== "events") continue;
    if (/^Format:/i.test(line)) {
      format = line
        .slice(line.indexOf(":") + 1)
        .split(",")
        .map((f) => f.trim().toLowerCase());
      continue;
    }
    if (!/^Dialogue:/i.test(line)) continue;
    number++;
    const fields = format ?? ["layer", "start", "end", "style", "name", "marginl", "marginr", "marginv", "effect", "text"];
    const values = line.slice(line.indexOf(":") + 1).split(",");
    if (values.length < fields.length) return fail(`第 ${number} 条对白（Dialogue）的字段不全`);
    // Text is the last field and may itself hold commas.
    const row = [...values.slice(0, fields.length - 1), values.slice(fields.length - 1).join(",")];
    const field = (name: string) => row[fields.indexOf(name)]?.trim() ?? "";
    const start = clockTime(field("start"));
    const end = clockTime(field("end"));
    if (start === null || end === null) return fail(`第 ${number} 条对白的时间无法识别：${field("start")} → ${field("end")}`);
    if (end <= start) continue; // zero-length events (effects) show nothing
    const body = plainText(
      row[fields.indexOf("text")]
        .replace(/\{[^}]*\}/g, "")
        .replace(/\\h/g, " ")
        .split(/\\[Nn]/),
    );
    if (body !== "") cues.push({ start, end, text: body });
  }
  if (number === 0) return fail("ASS 文件的 [Events] 部分没有对白（Dialogue）");
  return { ok: true, format: "ass", cues };
}

function parseWebVtt(text: string): ConvertedSubtitles {
  try {
    const file = parseVtt(text);
    const cues = file.cues
      .filter((cue) => cue.end > cue.start)
      .map((cue) => ({ ...cue, text: plainText(cue.text.split("\n")) }))
      .filter((cue) => cue.text !== "");
    return { ok: true, format: "vtt", cues };
  } catch (error) {
    if (error instanceof VttError) return fail(`WebVTT 文件有误：${error.message}`);
    throw error;
  }
}

/**
 * Converts an uploaded subtitle file (its text, already decoded) to WebVTT cues sorted by start.
 * A Chinese message says what is wrong when it cannot.
 */
export function convertSubtitles(input: string): ConvertedSubtitles {
  const text = input.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (text.trim() === "") return fail("字幕文件是空的");
  if (text.includes("\u0000")) return fail("字幕文件不是文本（请上传 UTF-8 编码的 SRT、ASS 或 WebVTT 文件）");
  const format = detectSubtitleFormat(text);
  if (!format) return fail("无法识别的字幕格式：请上传 SRT、ASS 或 WebVTT 文件");
  const parsed = format === "vtt" ? parseWebVtt(text) : format === "ass" ? parseAss(text) : parseSrt(text);
  if (!parsed.ok) return parsed;
  if (parsed.cues.length === 0) return fail(`${SUBTITLE_FORMAT_NAMES[format]} 文件里没有可显示的字幕`);
  if (parsed.cues.length > MAX_SUBTITLE_CUES) return fail(`字幕条目太多（${parsed.cues.length} 条，最多 ${MAX_SUBTITLE_CUES} 条）`);
  const cues = [...parsed.cues].sort((a, b) => a.start - b.start || a.end - b.end);
  return { ok: true, format, cues };
}

/** The WebVTT file of converted cues, with the header lines the stream needs (X-TIMESTAMP-MAP). */
export function subtitlesToVtt(cues: readonly VttCue[], header: readonly string[] = []): string {
  return writeVtt(cues, header);
}
