/**
 * GET /share-image/{id}?t={s}[&e={episode}]: the link-preview image of a `?t=` share link
 * (docs/decisions/0098-share-frame.md) — the packed frame nearest to t (shared/stream/share-frames.ts)
 * of the title's (or episode's) media, cached long at the edge. A title packed without frames
 * answers a short-cached redirect to its cover. Unknown title or episode: 404; a `t` that is not
 * whole seconds of the 从当前时间分享 link (shared/playback/start-time.ts) or a bad `e`: 400.
 */
import type { Context } from "hono";
import { isTitleId } from "../../shared/catalogue/title-ids";
import { episodeMedia } from "../../shared/episodes";
import { durationSeconds } from "../../shared/format";
import { parseStartTime } from "../../shared/playback/start-time";
import { mediaNumberOf, streamKey } from "../../shared/stream/contract";
import { nearestShareFrame, shareFrameName } from "../../shared/stream/share-frames";
import type { AppEnv } from "../app-env";
import { titleEntry } from "../catalogue/titles";
import { textResponse } from "../http/plain-answers";
import { answerFromR2 } from "../http/r2-answers";

/** A frame's bytes change only when the title is packed again: a day in browsers, a week at the edge. */
export const SHARE_IMAGE_CACHE = "public, max-age=86400, s-maxage=604800, stale-while-revalidate=604800, no-transform";
/** The cover stands in until the title is packed with frames: five minutes. */
export const SHARE_FALLBACK_CACHE = "public, max-age=300";

const EPISODE = /^[1-9][0-9]{0,3}$/;

export async function shareImage(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param("id") ?? "";
  const t = parseStartTime(c.req.query("t") ?? null);
  if (t === null) return textResponse(400, "时间参数无效：t 应为 1 到 86400 之间的整秒数");
  const e = c.req.query("e");
  if (e !== undefined && !EPISODE.test(e)) return textResponse(400, "集数参数无效");
  if (!isTitleId(id)) return textResponse(404, "视频不存在");
  const video = await titleEntry(c.env.DB, id);
  if (!video) return textResponse(404, "视频不存在");
  const media = episodeMedia(video, e === undefined ? 1 : Number(e));
  if (!media) return textResponse(404, "这一集不存在");
  const n = mediaNumberOf(media.videoFile);
  const key = n === null ? null : streamKey(n, shareFrameName(nearestShareFrame(t, durationSeconds(media.duration))));
  if (key === null || (await c.env.MEDIA.head(key)) === null) {
    return new Response(null, { status: 302, headers: { Location: media.coverImage, "Cache-Control": SHARE_FALLBACK_CACHE } });
  }
  return answerFromR2(c.req.raw, c.env.MEDIA, key, { contentType: "image/jpeg", cacheControl: SHARE_IMAGE_CACHE });
}
