/**
 * The engine of this page in the browser (the decision itself: shared/playback/engine-choice.ts).
 * Browser only: every function reads `window`, `document` or `navigator` when called, none when
 * the module loads. The player page's inline head script (client/inline/page-head.ts) probes with
 * the same browserCapabilities.
 */
import {
  chooseEngine,
  engineNamed,
  ENGINE_FLAG,
  HLS_MIME,
  isFastLink,
  type EngineCapabilities,
  type EngineKind,
  type LinkEstimate,
} from "../playback/engine-choice";

/** The browser's own estimate of its link (Chromium's navigator.connection; downlink in Mbit/s), where it gives one. */
export function browserConnection(): LinkEstimate | undefined {
  return (navigator as Navigator & { connection?: LinkEstimate }).connection;
}

/** What the browser can do. */
export function browserCapabilities(): EngineCapabilities {
  const w = window as unknown as { MediaSource?: unknown; ManagedMediaSource?: unknown };
  return {
    nativeHls: document.createElement("video").canPlayType(HLS_MIME) !== "",
    mse: typeof w.MediaSource === "function" || typeof w.ManagedMediaSource === "function",
    fastLink: isFastLink(browserConnection()),
  };
}

/** The engine this browser chooses for this page: its capabilities and the `?engine=` override. */
export function browserEngine(): EngineKind {
  return chooseEngine(browserCapabilities(), new URLSearchParams(location.search).get("engine"));
}

let decided: EngineKind | null = null;

/**
 * The engine this page uses, decided once per page load: the head script's choice where a player
 * page's HTML made one (the link estimate may change while the page loads; the player must play
 * with the engine the page started), else browserEngine.
 */
export function pageEngine(): EngineKind {
  decided ??= engineNamed((window as unknown as Record<string, unknown>)[ENGINE_FLAG]) ?? browserEngine();
  return decided;
}
