import { useCallback, useEffect, useState, type RefObject } from "react";

type OrientationLock = ScreenOrientation & { lock?: (o: "landscape") => Promise<void>; unlock?: () => void };

/** Whether the page runs on a touch-first device (a phone or tablet). */
function touchFirst(): boolean {
  return window.matchMedia?.("(pointer: coarse)").matches ?? false;
}

/**
 * Fullscreen of the player box (controls, subtitles and hints stay on top); iPhone Safari can
 * only put the <video> itself in fullscreen. On phones the screen turns to landscape where the
 * Screen Orientation API allows it, and is released on the way out.
 */
export function useFullscreen(boxRef: RefObject<HTMLElement | null>, videoRef: RefObject<HTMLVideoElement | null>) {
  const [fullscreen, setFullscreen] = useState(false);

  useEffect(() => {
    const onChange = () => {
      const on = document.fullscreenElement !== null && document.fullscreenElement === boxRef.current;
      setFullscreen(on);
      const orientation = screen.orientation as OrientationLock | undefined;
      if (!touchFirst() || !orientation) return;
      if (on) orientation.lock?.("landscape").catch(() => {});
      else orientation.unlock?.();
    };
    // The early controls may have entered fullscreen before the player hydrated.
    if (document.fullscreenElement === boxRef.current) setFullscreen(true);
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, [boxRef]);

  const toggle = useCallback(() => {
    const box = boxRef.current;
    const video: (HTMLVideoElement & { webkitEnterFullscreen?: () => void }) | null = videoRef.current;
    if (!box || !video) return;
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else if (document.fullscreenEnabled) box.requestFullscreen().catch((error: unknown) => console.warn("无法进入全屏", error));
    else video.webkitEnterFullscreen?.(); // iPhone Safari: only the video itself goes full screen
  }, [boxRef, videoRef]);

  return { fullscreen, toggle };
}

/**
 * Whether the browser offers picture-in-picture for the element. Most do: true while rendering on
 * the server and hydrating (the button is rendered, no layout shift), read once mounted.
 */
export function usePictureInPictureAvailable(videoRef: RefObject<HTMLVideoElement | null>): boolean {
  const [available, setAvailable] = useState(true);
  useEffect(() => {
    const v = videoRef.current as HTMLVideoElement;
    setAvailable(document.pictureInPictureEnabled === true && !v.disablePictureInPicture);
  }, [videoRef]);
  return available;
}
