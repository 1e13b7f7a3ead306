import type HlsType from "hls.js";

let hlsModule: Promise<typeof HlsType> | null = null;

/**
 * hls.js (the light build: no EME, no alternate audio; subtitles are rendered by the player),
 * loaded on demand, once: never in the page's bundle (docs/decisions/0020-hls-playback.md).
 */
export function loadHls(): Promise<typeof HlsType> {
  hlsModule ??= import("hls.js/light").then((m) => m.default);
  return hlsModule;
}
