import { episodeMedia } from "../episodes";
import type { Video } from "../catalogue/types";
import { mediaNumberOf, streamStartPaths } from "../stream/contract";
import { initialSource } from "./engine-choice";

/**
 * The files the player of this title and episode fetches first, which its page preloads: the
 * master playlist and the start rendition's media playlist (shared/stream/contract.ts,
 * streamStartPaths). None where the page plays the MP4 (`?engine=progressive`) or the title has
 * no numbered media (no stream exists for it).
 */
export function streamStartPreloads(video: Video, episode: number, engine: string | null): readonly string[] {
  if (initialSource(engine) === "mp4") return [];
  const n = mediaNumberOf(episodeMedia(video, episode)?.videoFile ?? video.videoFile);
  return n === null ? [] : streamStartPaths(n);
}

/**
 * The same preloads as an HTTP `Link` header (RFC 8288) for the page's response: the browser
 * starts them when the headers arrive, before it has parsed the HTML's <head> and before the
 * poster's preload there, so on a slow link the two playlists are not queued behind the poster
 * (docs/decisions/0055-stream-start-preloads.md). Attributes match the player's <link> (fetch,
 * anonymous CORS, high), so the browser fetches each once. Null when there is nothing to preload.
 */
export function streamStartLinkHeader(video: Video, episode: number, engine: string | null): string | null {
  const paths = streamStartPreloads(video, episode, engine);
  return paths.length === 0 ? null : paths.map((path) => `<${path}>; rel=preload; as=fetch; crossorigin; fetchpriority=high`).join(", ");
}
