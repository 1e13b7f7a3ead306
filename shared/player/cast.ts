import { castFailureText, castSource, type CastWay } from "../playback/cast";

/** Safari's AirPlay picker on the element (not in the DOM's types). */
interface AirPlayVideo extends HTMLVideoElement {
  webkitShowPlaybackTargetPicker?: () => void;
}

/** Resolves once the element has its new source's metadata (by then the switch has put the position back). */
function metadataLoaded(video: HTMLVideoElement): Promise<void> {
  return new Promise((resolve, reject) => {
    video.addEventListener("loadedmetadata", () => resolve(), { once: true });
    video.addEventListener("error", () => reject(new DOMException("source failed", "NotSupportedError")), { once: true });
  });
}

/**
 * 投屏 (decision 0105), loaded when the viewer presses the button: where hls.js plays a `blob:`
 * source, `playProgressive` first moves the element to the progressive MP4 at the same position
 * (useStream's switch), then the browser's picker opens on the element, whose absolute http(s)
 * source the screen fetches and plays from the element's position. Returns the notice to show, or
 * null.
 */
export async function castVideo(video: HTMLVideoElement, way: CastWay, progressive: string, playProgressive: () => boolean): Promise<string | null> {
  try {
    // Registered after the switch's own listener, so the position is back when this resolves.
    if (castSource(video.currentSrc, progressive, location.href).switchToProgressive && playProgressive()) await metadataLoaded(video);
    if (way === "airplay") (video as AirPlayVideo).webkitShowPlaybackTargetPicker?.();
    else await video.remote.prompt();
    return null;
  } catch (error) {
    return castFailureText(error instanceof DOMException ? error.name : "");
  }
}
