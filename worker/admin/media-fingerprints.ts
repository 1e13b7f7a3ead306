/**
 * GET /api/admin/uploads/{id}/fingerprints/{episode}: the stored audio fingerprint of another
 * episode of the upload's series (docs/decisions/0099-browser-intro-detection.md) — what the
 * browser packer matches the episode it packs against to find the 片头 / 片尾 they share. Stored
 * with that episode's media when it was uploaded (`audio.fp`, R2 `fingerprints/{n}.fp`); an
 * episode packed elsewhere (the CLI) has none: 404.
 */
import { fileEntry } from "../../shared/catalogue/publication";
import { TITLES_TABLE } from "../../shared/catalogue/import-plan";
import type { PublicationState, TitleEntry } from "../../shared/catalogue/schema";
import { mediaNumberOf } from "../../shared/stream/contract";
import { fingerprintKey } from "../../shared/upload/package";
import { refusal, uploadRow, type Result } from "./media-uploads";

const EPISODE = /^[1-9][0-9]{0,3}$/;

/** The media file of episode `n` of an entry (1: the title's own video). */
export function episodeVideoFile(entry: TitleEntry, n: number): string | null {
  const episodes = entry.episodes ?? [];
  if (n === 1) return entry.videoFile;
  return episodes[n - 1]?.videoFile ?? null;
}

export async function episodeFingerprint(env: Env, id: string, rawEpisode: string): Promise<Result<R2ObjectBody>> {
  const row = await uploadRow(env.DB, id);
  if (!row) return refusal(404, "no_upload", "没有这个上传任务");
  if (!EPISODE.test(rawEpisode)) return refusal(400, "bad_episode", "集数参数无效");
  const episode = Number(rawEpisode);
  const title = await env.DB.prepare(`SELECT entry, state, publish_at FROM ${TITLES_TABLE} WHERE id = ?`)
    .bind(row.title_id)
    .first<{ entry: string; state: PublicationState; publish_at: number }>();
  if (!title) return refusal(404, "not_found", `视频 ${row.title_id} 已被删除`);
  const entry = fileEntry(JSON.parse(title.entry) as TitleEntry, title.state, title.publish_at);
  const file = (entry.episodes?.length ?? 0) >= episode ? episodeVideoFile(entry, episode) : null;
  if (file === null) return refusal(404, "no_episode", `没有第${episode}集`);
  const n = mediaNumberOf(file);
  const object = n === null ? null : await env.MEDIA.get(fingerprintKey(n));
  if (!object) return refusal(404, "no_fingerprint", `第${episode}集没有音频指纹（不是在此处上传的）`);
  return { ok: true, value: object };
}
