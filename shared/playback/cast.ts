/**
 * 投屏 (decision 0105): which way this browser sends the video to a screen, and what the screen
 * gets. Pure; the player's side is shared/player/useCast.ts and shared/player/cast.ts.
 */

/** AirPlay through Safari's picker, or the Remote Playback API (Chrome: Chromecast and compatible TVs). */
export type CastWay = "airplay" | "remote";

export interface CastCapabilities {
  /** Safari's AirPlay: `WebKitPlaybackTargetAvailabilityEvent` and the element's `webkitShowPlaybackTargetPicker`. */
  airplay: boolean;
  /** The Remote Playback API: the element's `remote`, not switched off by `disableRemotePlayback`. */
  remotePlayback: boolean;
}

/** AirPlay where Safari has it (its own picker, also where Safari has `remote` too), else the Remote Playback API, else none: no 投屏 button. */
export function castWayOf(capabilities: CastCapabilities): CastWay | null {
  if (capabilities.airplay) return "airplay";
  if (capabilities.remotePlayback) return "remote";
  return null;
}

/**
 * What the screen gets: the element's own source when it is an http(s) URL (native HLS plays the
 * master playlist, the MP4 engine the file; the browser hands the screen that absolute URL), else —
 * hls.js plays a `blob:` of Media Source Extensions, which no screen can fetch — the progressive
 * MP4 (`progressive`, a path on the site) as an absolute URL, which the element must switch to first.
 */
export function castSource(currentSrc: string, progressive: string, pageUrl: string): { url: string; switchToProgressive: boolean } {
  const current = currentSrc ? new URL(currentSrc, pageUrl) : null;
  if (current && (current.protocol === "https:" || current.protocol === "http:")) return { url: current.href, switchToProgressive: false };
  return { url: new URL(progressive, pageUrl).href, switchToProgressive: true };
}

/** The notice after a 投屏 that did not start (the DOMException's name), or null: the viewer closed the picker. */
export function castFailureText(errorName: string): string | null {
  if (errorName === "NotAllowedError" || errorName === "AbortError") return null;
  if (errorName === "NotFoundError") return "未找到可投屏的设备";
  return "暂时无法投屏，请稍后再试";
}
