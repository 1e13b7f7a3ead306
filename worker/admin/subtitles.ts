/**
 * 字幕 uploads of 视频管理 (docs/admin.md, docs/decisions/0085-subtitles.md): an SRT, ASS or WebVTT
 * file for a title or one of its episodes, in one of SUBTITLE_LANGUAGES, converted to WebVTT
 * (shared/stream/subtitle-convert.ts: text and times kept, styling dropped) and written into the
 * media's stream in R2 — `subtitles-{lang}.vtt`, its one-segment playlist, and the master playlist
 * rewritten to list every language of the media (shared/stream/subtitle-tracks.ts). Any packed
 * stream will do (the placeholder packer, `catalogue add`, the browser packer): only its master and
 * its first variant's playlist are read. Then the entry's `subtitles` names the language, saved
 * like any edit (version, audit row, content version), so pages list it in the player's 字幕 menu.
 * Removing a language takes it out of the master and the entry (the files stay, unlisted).
 */
import { episodeCount, episodeMedia } from "../../shared/episodes";
import type { TitleEntry } from "../../shared/catalogue/schema";
import {
  isSubtitleLanguage,
  mediaNumberOf,
  streamKey,
  streamNames,
  SUBTITLE_LANGUAGES,
  SUBTITLE_NAMES,
  type SubtitleLanguage,
} from "../../shared/stream/contract";
import { parseMasterPlaylist, parseMediaPlaylist, PlaylistError } from "../../shared/stream/hls-parse";
import { convertSubtitles, SUBTITLE_FORMAT_NAMES, subtitlesToVtt, type SubtitleFormat } from "../../shared/stream/subtitle-convert";
import { timestampMapHeader } from "../../shared/stream/subtitles";
import { masterWithSubtitles, orderedLanguages, subtitleLanguagesOf, subtitlePlaylistOf, timestampMapOf } from "../../shared/stream/subtitle-tracks";
import type { AdminVisitor } from "./access";
import type { Refusal, Result } from "./actions";
import { auditStatement, prepared } from "./audit";
import { saveTitle, titleForEdit } from "./titles";

/** The most an uploaded subtitle file may weigh (UTF-8): a feature film's SRT is ~100 KB. */
export const MAX_SUBTITLE_BYTES = 1536 * 1024;

const refusal = (status: Refusal["status"], code: string, message: string): Refusal => ({ ok: false, status, code, message });

export interface SubtitleUpload {
  episode: number;
  language: SubtitleLanguage;
  format: SubtitleFormat;
  cues: number;
  /** The languages of the media now. */
  languages: SubtitleLanguage[];
}

const LANGUAGE_LIST = SUBTITLE_LANGUAGES.map((l) => SUBTITLE_NAMES[l]).join("、");

/** The episode asked for (1 for a single title), or a refusal. */
function episodeOf(entry: TitleEntry, raw: unknown): number | Refusal {
  const episode = raw === undefined || raw === null || raw === "" ? 1 : Number(raw);
  if (!Number.isInteger(episode) || episode < 1 || episode > episodeCount(entry)) {
    return refusal(400, "bad_episode", entry.episodes ? `没有第 ${String(raw)} 集（共 ${entry.episodes.length} 集）` : "单片只有一个视频，不能指定集数");
  }
  return episode;
}

/** The entry with `languages` as the subtitles of `episode` (a series' episode, else the title's own). */
function withLanguages(entry: TitleEntry, episode: number, languages: SubtitleLanguage[]): TitleEntry {
  if (!entry.episodes) return { ...entry, subtitles: languages };
  return { ...entry, episodes: entry.episodes.map((e, i) => (i === episode - 1 ? { ...e, subtitles: languages } : e)) };
}

async function readText(bucket: R2Bucket, key: string): Promise<string | null> {
  const object = await bucket.get(key);
  return object ? object.text() : null;
}

/** The media's master and its length (the first variant's playlist): what a subtitle playlist needs. */
async function streamOf(bucket: R2Bucket, n: string): Promise<{ master: string; duration: number } | Refusal> {
  const master = await readText(bucket, streamKey(n, streamNames.master));
  if (master === null) return refusal(409, "not_packed", `媒体 ${n} 还没有 HLS 码流：请先打包（npm run catalogue -- add 或在管理后台上传视频）再上传字幕`);
  try {
    const first = parseMasterPlaylist(master).variants[0];
    const playlist = first ? await readText(bucket, streamKey(n, first.uri)) : null;
    if (playlist === null) return refusal(409, "not_packed", `媒体 ${n} 的码流不完整（缺少 ${first?.uri ?? "变体播放列表"}）`);
    const duration = parseMediaPlaylist(playlist).segments.reduce((sum, s) => sum + s.duration, 0);
    return { master, duration };
  } catch (error) {
    if (error instanceof PlaylistError) return refusal(409, "bad_stream", `媒体 ${n} 的播放列表无法读取：${error.message}`);
    throw error;
  }
}

/** Rewrites the master of media `n` to list `languages`. */
async function listInMaster(bucket: R2Bucket, n: string, master: string, languages: readonly SubtitleLanguage[]): Promise<void> {
  const next = masterWithSubtitles(master, languages);
  if (next !== master) await bucket.put(streamKey(n, streamNames.master), next, { httpMetadata: { contentType: "application/vnd.apple.mpegurl" } });
}

/** The title, episode and language an upload or removal names, or the refusal. */
async function subtitleTarget(env: Env, id: string, body: { episode?: unknown; language?: unknown }, nowMs: number) {
  const title = await titleForEdit(env.DB, id, nowMs);
  if (!title) return refusal(404, "not_found", `没有编号为 ${id} 的视频`);
  const episode = episodeOf(title.entry, body.episode);
  if (typeof episode !== "number") return episode;
  if (!isSubtitleLanguage(body.language)) return refusal(400, "bad_language", `请选择字幕语言（${LANGUAGE_LIST}）`);
  return { ok: true as const, value: { title, episode, language: body.language } };
}

/** Uploads one language's subtitles for a title or episode: converted, written to R2, listed, saved in the entry. */
export async function putSubtitles(
  env: Env,
  actor: AdminVisitor,
  id: string,
  body: { episode?: unknown; language?: unknown; text?: unknown },
  nowMs: number,
): Promise<Result<SubtitleUpload>> {
  const target = await subtitleTarget(env, id, body, nowMs);
  if (!target.ok) return target;
  const { title, episode, language } = target.value;
  if (typeof body.text !== "string" || body.text.length === 0) return refusal(400, "no_file", "没有收到字幕文件");
  if (new TextEncoder().encode(body.text).length > MAX_SUBTITLE_BYTES) return refusal(400, "subtitles_too_large", "字幕文件不能超过 1.5 MB");
  const converted = convertSubtitles(body.text);
  if (!converted.ok) return refusal(400, "bad_subtitles", converted.message);

  const media = episodeMedia(title.entry, episode);
  const n = media && mediaNumberOf(media.videoFile);
  if (!n) return refusal(400, "bad_episode", "找不到这一集的媒体文件");
  const stream = await streamOf(env.MEDIA, n);
  if ("ok" in stream) return stream;
  const known = subtitleLanguagesOf(title.entry, episode);
  // Aligned like the packer's own subtitles (their X-TIMESTAMP-MAP), when the media has any; a browser-packed
  // media has none (`subtitles: []`) and starts at time 0 (client/admin/packer/pack.ts), so cue 0 is media time 0.
  const packed = await Promise.all(known.map((l) => readText(env.MEDIA, streamKey(n, streamNames.subtitlesOf(l)))));
  const map = packed.map((text) => (text ? timestampMapOf(text) : null)).find((m) => m !== null) ?? (known.length === 0 ? timestampMapHeader(0) : null);
  const vtt = subtitlesToVtt(converted.cues, map ? [map] : []);
  const languages = orderedLanguages([...known, language]);
  await env.MEDIA.put(streamKey(n, streamNames.subtitlesOf(language)), vtt, { httpMetadata: { contentType: "text/vtt; charset=utf-8" } });
  await env.MEDIA.put(streamKey(n, streamNames.subtitlePlaylistOf(language)), subtitlePlaylistOf(language, Math.max(stream.duration, 1)), {
    httpMetadata: { contentType: "application/vnd.apple.mpegurl" },
  });
  await listInMaster(env.MEDIA, n, stream.master, languages);
  const saved = await saveTitle(env, actor, withLanguages(title.entry, episode, languages), { id, version: title.version }, nowMs);
  if (!saved.ok) return saved;
  await prepared(
    env.DB,
    auditStatement(
      {
        actorId: actor.userId,
        actorEmail: actor.email,
        action: "title.subtitles",
        target: id,
        after: { episode, language, format: SUBTITLE_FORMAT_NAMES[converted.format], cues: converted.cues.length },
      },
      nowMs,
    ),
  ).run();
  return { ok: true, value: { episode, language, format: converted.format, cues: converted.cues.length, languages } };
}

/** Takes a language out of a title's or episode's subtitles: out of the master and the entry. */
export async function removeSubtitles(
  env: Env,
  actor: AdminVisitor,
  id: string,
  body: { episode?: unknown; language?: unknown },
  nowMs: number,
): Promise<Result<{ episode: number; languages: SubtitleLanguage[] }>> {
  const target = await subtitleTarget(env, id, body, nowMs);
  if (!target.ok) return target;
  const { title, episode, language } = target.value;
  const known = subtitleLanguagesOf(title.entry, episode);
  if (!known.includes(language)) return refusal(404, "no_such_subtitles", `这个视频没有${SUBTITLE_NAMES[language]}字幕`);
  const languages = known.filter((l) => l !== language);
  const media = episodeMedia(title.entry, episode);
  const n = media && mediaNumberOf(media.videoFile);
  const master = n ? await readText(env.MEDIA, streamKey(n, streamNames.master)) : null;
  if (n && master !== null) await listInMaster(env.MEDIA, n, master, languages);
  const saved = await saveTitle(env, actor, withLanguages(title.entry, episode, languages), { id, version: title.version }, nowMs);
  if (!saved.ok) return saved;
  return { ok: true, value: { episode, languages } };
}
