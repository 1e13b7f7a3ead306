/**
 * What a page that plays a stream on its first view adds to its answer — switched on by its route
 * declaration (`player: true`, shared/routes/video.route.ts) when it answers 200:
 *
 * - the hls.js and player chunks and the early hls.js start, which its inline head and boot
 *   scripts fetch only where the browser will play the stream with hls.js (shared/Document.tsx,
 *   shared/player/page-scripts.ts, docs/decisions/0054 and 0058);
 * - the boot script, which starts the page's modules instead of React's bootstrap module;
 * - the `Link` header preloading the stream's first two playlists (shared/playback/stream-start.ts,
 *   docs/decisions/0055).
 */
import clientAssets from "virtual:client-assets";
import { playerPageScripts, type DocumentAssets } from "../shared/Document";
import type { VideoData } from "../shared/loaders";
import { pageBootScript } from "../shared/player/page-scripts";
import { streamStartLinkHeader } from "../shared/playback/stream-start";

/** The hls.js build the player imports (shared/player/load-hls.ts, loadHls). */
const HLS_MODULE = "node_modules/hls.js/dist/hls.light.mjs";
/** The player island (shared/player/PlayerIsland.tsx): it takes over the early hls.js playback when it hydrates. */
const PLAYER_MODULE = "shared/player/VideoPlayer.tsx";

let earlyHlsFiles: string[] | null = null;
/** The early hls.js start's files and the hls.js chunk, computed once per isolate (the manifest does not change). */
function earlyHlsStart(): string[] {
  earlyHlsFiles ??= [...new Set([...clientAssets.hlsStart, ...(clientAssets.lazy[HLS_MODULE] ?? [])])];
  return earlyHlsFiles;
}

export interface PlayerPage {
  /** The page's assets with the stream chunks and the early hls.js start (unchanged without a built player chunk). */
  assets: DocumentAssets;
  /** Script run after the hydration data: starts the page's modules (null: React's bootstrap module does). */
  bootScript: string | null;
  /** The `Link` header of the stream's first playlists (null when the title has none to preload). */
  link: string | null;
}

/** The player page's additions to a page's assets, given its loader data and URL (`?engine=` picks the engine). */
export function playerPage(assets: DocumentAssets, data: VideoData | undefined, url: URL): PlayerPage {
  const streamChunks = [...(clientAssets.lazy[HLS_MODULE] ?? []), ...(clientAssets.lazy[PLAYER_MODULE] ?? [])].filter(
    (file) => !assets.preloads.includes(file),
  );
  const withStream: DocumentAssets = streamChunks.length > 0 ? { ...assets, streamChunks, hlsStart: earlyHlsStart() } : assets;
  const scripts = playerPageScripts(withStream);
  return {
    assets: withStream,
    bootScript: scripts ? pageBootScript(scripts) : null,
    link: data?.video ? streamStartLinkHeader(data.video, data.episode, url.searchParams.get("engine")) : null,
  };
}
