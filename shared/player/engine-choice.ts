import type HlsType from "hls.js";

/**
 * Which engine plays a title's stream on this page, and the on-demand hls.js import
 * (docs/decisions/0020-hls-playback.md). Kept apart from the engines themselves
 * (stream-engine.ts) so the page can decide and start fetching hls.js before the player's own
 * chunk (a lazy island, PlayerIsland.tsx) has arrived.
 * - "native": the browser plays HLS itself (Safari, iOS, and Chromium builds that answer
 *   canPlayType("application/vnd.apple.mpegurl")). The master playlist is the element's
 *   <source>, so the browser starts loading it before the page is hydrated; a manual 清晰度 plays
 *   that rendition's media playlist.
 * - "hlsjs": Media Source Extensions with hls.js, loaded on demand (never in the page's bundle).
 * - "progressive": neither: the progressive MP4.
 */
export type EngineKind = "native" | "hlsjs" | "progressive";

export interface EngineCapabilities {
  /** canPlayType("application/vnd.apple.mpegurl") answered non-empty. */
  nativeHls: boolean;
  /** MediaSource (or Safari's ManagedMediaSource) exists. */
  mse: boolean;
}

/** `?engine=native|hlsjs|progressive` on the page URL forces a path (benchmark and tests). */
export function chooseEngine(caps: EngineCapabilities, forced?: string | null): EngineKind {
  if (forced === "native" && caps.nativeHls) return "native";
  if (forced === "hlsjs" && caps.mse) return "hlsjs";
  if (forced === "progressive") return "progressive";
  if (caps.nativeHls) return "native";
  if (caps.mse) return "hlsjs";
  return "progressive";
}

/**
 * The source the server renders into the <video> for a forced engine (null: none forced): the
 * master playlist (browsers with native HLS start on it before hydration), the MP4 for
 * `progressive`, nothing for `hlsjs` (hls.js attaches itself; a native start would otherwise play
 * first in browsers that have both).
 */
export function initialSource(forced: string | null): "hls" | "mp4" | "none" {
  if (forced === "progressive") return "mp4";
  if (forced === "hlsjs") return "none";
  return "hls";
}

export const HLS_MIME = "application/vnd.apple.mpegurl";

/** What the browser can do (call in the browser only). */
export function browserCapabilities(): EngineCapabilities {
  const probe = document.createElement("video");
  const w = window as unknown as { MediaSource?: unknown; ManagedMediaSource?: unknown };
  return { nativeHls: probe.canPlayType(HLS_MIME) !== "", mse: typeof w.MediaSource === "function" || typeof w.ManagedMediaSource === "function" };
}

let decided: EngineKind | null = null;

/** The engine this page uses (capabilities + the ?engine= override), decided once per page load. Browser only. */
export function pageEngine(): EngineKind {
  decided ??= chooseEngine(browserCapabilities(), new URLSearchParams(location.search).get("engine"));
  return decided;
}

/**
 * The inline script the server puts in the <head> of a page with a player
 * (shared/Document.tsx): where this browser will play the stream with hls.js (the same decision
 * as chooseEngine, from the same capabilities and ?engine=), it adds modulepreloads of `chunks`
 * (hls.js and the player island's chunks, which hls.js waits for), so they download alongside
 * the page's own JavaScript instead of after it has run. Browsers with native HLS, and the MP4
 * path, fetch nothing more: the player's chunk is not on their way to the first frame.
 * tests/unit/hls-preload-script.test.ts checks it decides as chooseEngine does.
 */
export function hlsPreloadScript(chunks: readonly string[]): string {
  return (
    `(function(){var d=document,w=window,e=new URLSearchParams(location.search).get("engine"),` +
    `n=d.createElement("video").canPlayType(${JSON.stringify(HLS_MIME)})!=="",` +
    `m=typeof w.MediaSource==="function"||typeof w.ManagedMediaSource==="function";` +
    `if(e==="progressive"||!m||(n&&e!=="hlsjs"))return;` +
    `${JSON.stringify(chunks).replace(/</g, "\\u003c")}.forEach(function(h){var l=d.createElement("link");l.rel="modulepreload";l.href=h;d.head.appendChild(l)})})()`
  );
}

let hlsModule: Promise<typeof HlsType> | null = null;

/** hls.js (the light build: no EME, no alternate audio; subtitles are rendered by the player). Loaded once. */
export function loadHls(): Promise<typeof HlsType> {
  hlsModule ??= import("hls.js/light").then((m) => m.default);
  return hlsModule;
}
