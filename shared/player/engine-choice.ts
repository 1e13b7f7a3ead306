import type HlsType from "hls.js";
import { serializeForScript } from "../hydration";

/**
 * Which engine plays a title's stream on this page, and the on-demand hls.js import
 * (docs/decisions/0020-hls-playback.md). Kept apart from the engines themselves
 * (stream-engine.ts) so the page can decide and start fetching hls.js before the player's own
 * chunk (a lazy island, PlayerIsland.tsx) has arrived.
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

/** The browser's link estimate as chooseEngine reads it. */
export function isFastLink(connection: { downlink?: number; saveData?: boolean } | undefined): boolean {
  return !!connection && connection.saveData !== true && typeof connection.downlink === "number" && connection.downlink >= FAST_LINK_MBPS;
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

/** The browser's own estimate of its link (Chromium's navigator.connection; downlink in Mbit/s), where it gives one. Browser only. */
export function browserConnection(): { downlink?: number; saveData?: boolean } | undefined {
  return (navigator as Navigator & { connection?: { downlink?: number; saveData?: boolean } }).connection;
}

/** What the browser can do (call in the browser only). */
export function browserCapabilities(): EngineCapabilities {
  const probe = document.createElement("video");
  const w = window as unknown as { MediaSource?: unknown; ManagedMediaSource?: unknown };
  const connection = browserConnection();
  return {
    nativeHls: probe.canPlayType(HLS_MIME) !== "",
    mse: typeof w.MediaSource === "function" || typeof w.ManagedMediaSource === "function",
    fastLink: isFastLink(connection),
  };
}

/** The window property where a player page's head script leaves the engine it chose (pageHeadScript). */
export const ENGINE_FLAG = "__engine";

const ENGINES: readonly EngineKind[] = ["native", "hlsjs", "progressive"];

let decided: EngineKind | null = null;

/**
 * The engine this page uses, decided once per page load: the head script's choice where a player
 * page's HTML made one (the link estimate may change while the page loads; the player must play
 * with the engine the page started), else capabilities + the ?engine= override. Browser only.
 */
export function pageEngine(): EngineKind {
  const early = (window as unknown as Record<string, unknown>)[ENGINE_FLAG];
  decided ??= ENGINES.find((e) => e === early) ?? chooseEngine(browserCapabilities(), new URLSearchParams(location.search).get("engine"));
  return decided;
}

/**
 * The engine decision of chooseEngine as inline-script source: sets `k` to "native", "hlsjs" or
 * "progressive" from this browser's capabilities and ?engine= (tests/unit/page-start-scripts.test.ts
 * checks it decides as chooseEngine does).
 */
const ENGINE_SOURCE =
  `var d=document,w=window,e=new URLSearchParams(location.search).get("engine"),` +
  `n=d.createElement("video").canPlayType(${JSON.stringify(HLS_MIME)})!=="",` +
  `m=typeof w.MediaSource==="function"||typeof w.ManagedMediaSource==="function",` +
  `c=navigator.connection,f=!!c&&c.saveData!==true&&typeof c.downlink==="number"&&c.downlink>=${FAST_LINK_MBPS},` +
  `k=e==="native"&&n?"native":e==="hlsjs"&&m?"hlsjs":e==="progressive"?"progressive":n&&m&&f?"hlsjs":n?"native":m?"hlsjs":"progressive";` +
  `w.${ENGINE_FLAG}=k;`;

/**
 * Where hls.js plays in a browser that could play HLS itself (a fast link, decision 0059): the
 * server's <video> still names the master playlist in a <source> (the server cannot know the
 * link), and the browser would start loading it natively until hls.js takes the element over,
 * its requests sharing the link with hls.js's own. A MutationObserver takes the `src` off that
 * <source> as the parser inserts it: Chromium starts a media element's resource selection from
 * a task posted when the <source> is inserted, after the microtask that delivers this
 * observer's records, so it finds no source to load. (Attributes are not compared when React
 * hydrates; the element stays as the server rendered it otherwise.)
 */
const KEEP_NATIVE_OFF_SOURCE =
  `{var o=new MutationObserver(function(l){l.forEach(function(r){r.addedNodes.forEach(function(x){` +
  `if(x.tagName==="SOURCE"&&x.type===${JSON.stringify(HLS_MIME)}&&x.parentNode&&x.parentNode.hasAttribute("data-stream")){x.removeAttribute("src");o.disconnect()}})})});` +
  `o.observe(d,{childList:true,subtree:true});d.addEventListener("DOMContentLoaded",function(){o.disconnect()})}`;

/** Source of a function `p(list)` adding a <link rel="modulepreload"> per file to the <head>. */
const PRELOAD_SOURCE = `function p(l){l.forEach(function(h){var x=d.createElement("link");x.rel="modulepreload";x.href=h;d.head.appendChild(x)})}`;

/** What the page's scripts on a page with a player are (the server's DocumentAssets). */
export interface PageScripts {
  /** The entry module(s). */
  scripts: readonly string[];
  /** The chunks the entry imports on this route. */
  preloads: readonly string[];
  /** The hls.js chunk and the player island's chunks. */
  streamChunks: readonly string[];
  /** The early start of hls.js (hls-start-boot.ts) first, then its imports and the hls.js chunk. */
  hlsStart: readonly string[];
}

/** The window flag the head script sets when this page's JavaScript waits for the video's first frame. */
export const VIDEO_FIRST_FLAG = "__videoFirst";

/** The window flag the head script sets when hls.js starts before the page's JavaScript (hls-start-boot.ts). */
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
 * The inline script the server puts in the <head> of a page with a player (shared/Document.tsx),
 * before the stylesheet. It decides the engine as chooseEngine does, then:
 * - "native" (the browser plays the <video>'s HLS source itself, from the server's HTML): the
 *   page's JavaScript is not on the way to the first frame, and on a slow link its ~140 KB would
 *   go before the video's first segments (scripts have a higher priority than media), so it
 *   only sets the flag for pageBootScript, which fetches it after the first frame
 *   (docs/decisions/0054-video-first-scripts.md);
 * - "hlsjs": only the early start of hls.js and hls.js itself are on the way to the first frame:
 *   it preloads those and sets the flag for pageBootScript, which starts them and fetches the
 *   page's modules once the video has a head start (docs/decisions/0058-early-hls-start.md); in
 *   a browser that could play HLS itself (a fast link) it also keeps that browser from loading
 *   the server's HLS <source> (KEEP_NATIVE_OFF_SOURCE, docs/decisions/0059-engine-by-link.md);
 * - "progressive": it preloads the page's modules now.
 */
export function pageHeadScript(page: PageScripts): string {
  return (
    `(function(){${ENGINE_SOURCE}${PRELOAD_SOURCE}` +
    `if(k==="native"){w.${VIDEO_FIRST_FLAG}=true;return}` +
    `if(k==="hlsjs"&&n)${KEEP_NATIVE_OFF_SOURCE}` +
    `if(k==="hlsjs"){w.${HLS_FIRST_FLAG}=true;return p(${serializeForScript(page.hlsStart)})}` +
    `p(${serializeForScript([...page.scripts, ...page.preloads])})})()`
  );
}

/**
 * The inline script that starts the page's JavaScript on a page with a player, placed after the
 * hydration data (the server's bootstrap script), so after the <video>:
 * - where the head script chose "native", it waits for the video's first frame on screen
 *   (`playing`, then its first requestVideoFrameCallback), an error of the video or its <source>,
 *   the visitor's first touch, click or key, or SCRIPTS_WAIT_MAX_MS — whichever comes first —
 *   then preloads the page's modules and adds the entry;
 * - where it chose "hlsjs", it adds the early start of hls.js at once and the page's modules (with
 *   the hls.js and player chunks) on EARLY_HLS_EVENT, an error of the video, the visitor's first
 *   touch, click or key, or HLS_SCRIPTS_WAIT_MAX_MS (a <source> error does not count there: the
 *   server's HLS <source> is one the browser cannot play, or one the head script took the src off);
 * - elsewhere it adds the entry at once.
 * The hls.js path's files (hls.js, the player island, the early start) are read from
 * `window.__ASSETS__` (the DocumentAssets the same inline script sets just before), not written
 * out here: what the script names is what every browser fetches before it hydrates
 * (scripts/page-scripts.mjs counts it against the route's JavaScript budget).
 */
export function pageBootScript(page: Pick<PageScripts, "scripts" | "preloads">): string {
  const videoEvents = ["playing", "error", "pointerdown", "touchstart", "keydown"];
  const hlsEvents = [EARLY_HLS_EVENT, "error", "pointerdown", "touchstart", "keydown"];
  return (
    `(function(){var d=document,w=window,s=0,h=w.${HLS_FIRST_FLAG};${PRELOAD_SOURCE}` +
    `function go(){if(s)return;s=1;if(w.${VIDEO_FIRST_FLAG})p(${serializeForScript(page.preloads)});` +
    `if(h)p(${serializeForScript(page.preloads)}.concat(w.__ASSETS__.streamChunks));` +
    `${serializeForScript(page.scripts)}.forEach(function(u){var x=d.createElement("script");x.type="module";x.src=u;d.head.appendChild(x)})}` +
    `if(!w.${VIDEO_FIRST_FLAG}&&!h)return go();` +
    // An error counts only from the video or its <source> (a related title's broken cover is not the video's).
    // On `playing`, once the first frame is on screen: Chromium shows it only after a main-thread
    // frame, which the page's modules (evaluation, hydration) would hold up by up to ~0.6 s.
    `function on(x){var g=x.target&&x.target.tagName;if(x.type==="playing"&&x.target.requestVideoFrameCallback)x.target.requestVideoFrameCallback(go);` +
    `else if(x.type!=="error"||g==="VIDEO"||(g==="SOURCE"&&!h))go()}` +
    `(h?${serializeForScript(hlsEvents)}:${serializeForScript(videoEvents)}).forEach(function(t){d.addEventListener(t,on,{capture:true,passive:true})});` +
    `if(h){var x=d.createElement("script");x.type="module";x.src=w.__ASSETS__.hlsStart[0];d.head.appendChild(x);return setTimeout(go,${HLS_SCRIPTS_WAIT_MAX_MS})}` +
    `var v=d.querySelector("video");if(v&&(v.error||(!v.paused&&v.readyState>=3)))return go();` +
    `setTimeout(go,${SCRIPTS_WAIT_MAX_MS})})()`
  );
}

let hlsModule: Promise<typeof HlsType> | null = null;

/** hls.js (the light build: no EME, no alternate audio; subtitles are rendered by the player). Loaded once. */
export function loadHls(): Promise<typeof HlsType> {
  hlsModule ??= import("hls.js/light").then((m) => m.default);
  return hlsModule;
}
