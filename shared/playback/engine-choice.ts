/**
 * Which engine plays a title's stream on this page (docs/decisions/0020-hls-playback.md): the
 * decision as a pure function of what the browser can do, and the names a player page's inline
 * scripts and its modules agree on. The browser's side (probing, the page's engine, hls.js on
 * demand) is shared/player/page-engine.ts and shared/player/load-hls.ts; the inline scripts that
 * apply the same decision before the page's JavaScript are client/inline/ (built by the bundler,
 * scripts/inline-scripts.ts).
 * - "native": the browser plays HLS itself (Safari, iOS, and Chromium builds that answer
 *   canPlayType("application/vnd.apple.mpegurl")). The master playlist is the element's
 *   <source>, so the browser starts loading it before the page is hydrated; a manual 清晰度 plays
 *   that rendition's media playlist.
 * - "hlsjs": Media Source Extensions with hls.js, loaded on demand (never in the page's bundle):
 *   where the browser has no HLS of its own, and where it has both and its own estimate of the
 *   link is fast (`fastLink`, docs/decisions/0059-engine-by-link.md).
 * - "progressive": neither: the progressive MP4.
 */
export type EngineKind = "native" | "hlsjs" | "progressive";

export interface EngineCapabilities {
  /** canPlayType("application/vnd.apple.mpegurl") answered non-empty. */
  nativeHls: boolean;
  /** MediaSource (or Safari's ManagedMediaSource) exists. */
  mse: boolean;
  /**
   * The browser's own estimate of its link (navigator.connection, Chromium) is at least
   * FAST_LINK_MBPS and the visitor asks for no data saving. False where there is no estimate.
   */
  fastLink?: boolean;
}

/**
 * Downlink estimate (Mbit/s, navigator.connection.downlink) from which a browser that could play
 * HLS itself plays it with hls.js instead: on such a link hls.js's ~96 KB cost ~0.1 s and it plays
 * from the first segment, while Chromium's own player waits for its first ABR step (decision 0059).
 */
export const FAST_LINK_MBPS = 5;

/** `?engine=native|hlsjs|progressive` on the page URL forces a path (benchmark and tests). */
export function chooseEngine(caps: EngineCapabilities, forced?: string | null): EngineKind {
  if (forced === "native" && caps.nativeHls) return "native";
  if (forced === "hlsjs" && caps.mse) return "hlsjs";
  if (forced === "progressive") return "progressive";
  if (caps.nativeHls && caps.mse && caps.fastLink === true) return "hlsjs";
  if (caps.nativeHls) return "native";
  if (caps.mse) return "hlsjs";
  return "progressive";
}

/** The browser's link estimate (navigator.connection: downlink in Mbit/s, saveData) as chooseEngine reads it. */
export interface LinkEstimate {
  downlink?: number;
  saveData?: boolean;
}

/** The browser's link estimate as chooseEngine reads it. */
export function isFastLink(connection: LinkEstimate | undefined): boolean {
  return !!connection && connection.saveData !== true && typeof connection.downlink === "number" && connection.downlink >= FAST_LINK_MBPS;
}

const ENGINES: readonly EngineKind[] = ["native", "hlsjs", "progressive"];

/** An engine named by untrusted data (the head script's window flag), or undefined. */
export function engineNamed(value: unknown): EngineKind | undefined {
  return ENGINES.find((e) => e === value);
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

/** The window property where a player page's head script leaves the engine it chose (client/inline/page-head.ts). */
export const ENGINE_FLAG = "__engine";

/** The window flag the head script sets when this page's JavaScript waits for the video's first frame. */
export const VIDEO_FIRST_FLAG = "__videoFirst";

/** The window flag the head script sets when hls.js starts before the page's JavaScript (client/hls-start-boot.ts). */
export const HLS_FIRST_FLAG = "__hlsFirst";

/**
 * Fired on `document` by the early hls.js start once the page's modules may follow: the video
 * plays with a head start buffered, or it did not start by itself, or the early start gave up
 * (or never began: a remembered 清晰度, no hls.js support).
 */
export const EARLY_HLS_EVENT = "yingshi:early-hls";

/** Longest wait (ms, from the end of the HTML) for the early hls.js start before the page's JavaScript is fetched anyway. */
export const HLS_SCRIPTS_WAIT_MAX_MS = 10_000;

/**
 * Longest wait (ms, from the end of the HTML) for the first frame before the page's JavaScript
 * is fetched anyway (a browser that does not start the video on its own: power saving, data
 * saver, a background tab).
 */
export const SCRIPTS_WAIT_MAX_MS = 3000;

/**
 * How many of the page's files one task of the boot script asks for (client/inline/page-boot.ts).
 * Each request costs the main thread ~1.5 ms (~6 ms with a phone's 4× slower CPU): the ~32 of
 * /video in one task held the tap that started them ~200 ms (INP, docs/performance.md).
 */
export const MODULE_FILES_PER_TASK = 4;

/** What the page's scripts on a page with a player are (the server's DocumentAssets). */
export interface PageScripts {
  /** The entry module(s). */
  scripts: readonly string[];
  /** The chunks the entry imports on this route. */
  preloads: readonly string[];
  /** The hls.js chunk and the player island's chunks. */
  streamChunks: readonly string[];
  /** The early start of hls.js (client/hls-start-boot.ts) first, then its imports and the hls.js chunk. */
  hlsStart: readonly string[];
}

/** What the server writes into a player page's head script: the files of the hls.js path, and those of the page's own modules. */
export type HeadScriptFiles = readonly [hlsStart: readonly string[], modules: readonly string[]];

/** What the server writes into a player page's boot script: the entry module(s), and the route's chunks. */
export type BootScriptFiles = readonly [scripts: readonly string[], preloads: readonly string[]];
