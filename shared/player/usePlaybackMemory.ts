import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { resumePosition, useLibrary, type PlayerPrefs } from "../library";
import { playerConfig } from "./config";

/**
 * What the player remembers: the watch position (saved every few seconds of playback, on pause,
 * on leaving the page and on unmount), the 从 m:ss 继续播放 offer, and the stored preferences,
 * which are applied once known — then `onReady` starts playback.
 */
export function usePlaybackMemory(videoRef: RefObject<HTMLVideoElement | null>, id: string, onReady: () => void) {
  const lib = useLibrary();
  const libRef = useRef(lib);
  const onReadyRef = useRef(onReady);
  useEffect(() => {
    libRef.current = lib;
    onReadyRef.current = onReady;
  });
  const [resumeAt, setResumeAt] = useState<number | null>(null);
  const started = useRef(false);
  const lastSaved = useRef(0);
  /** Set when the player gives up on this video: its position is not worth keeping. */
  const frozen = useRef(false);

  const save = useCallback(() => {
    const v = videoRef.current;
    if (!v || frozen.current || !(v.duration > 0) || !(v.currentTime > 0)) return;
    lastSaved.current = v.currentTime;
    libRef.current.savePosition(id, v.currentTime, v.duration);
  }, [videoRef, id]);

  useEffect(() => {
    const v = videoRef.current;
    if (!v) return;
    const onTime = () => {
      if (Math.abs(v.currentTime - lastSaved.current) >= playerConfig.saveEverySeconds) save();
    };
    const onEnded = () => {
      save();
      setResumeAt(null);
    };
    v.addEventListener("timeupdate", onTime);
    v.addEventListener("pause", save);
    v.addEventListener("ended", onEnded);
    window.addEventListener("pagehide", save);
    return () => {
      v.removeEventListener("timeupdate", onTime);
      v.removeEventListener("pause", save);
      v.removeEventListener("ended", onEnded);
      window.removeEventListener("pagehide", save);
      save();
    };
  }, [videoRef, save]);

  // When the stored preferences are known: apply them, offer the saved position, start.
  useEffect(() => {
    const v = videoRef.current;
    if (!lib.ready || started.current || !v) return;
    started.current = true;
    v.volume = lib.prefs.volume;
    v.muted = lib.prefs.muted;
    v.defaultPlaybackRate = lib.prefs.rate;
    v.playbackRate = lib.prefs.rate;
    setResumeAt(resumePosition(lib.library, id));
    onReadyRef.current();
  }, [videoRef, lib.ready, lib.prefs, lib.library, id]);

  useEffect(() => {
    if (resumeAt === null) return;
    const timer = setTimeout(() => setResumeAt(null), playerConfig.resumePromptMs);
    return () => clearTimeout(timer);
  }, [resumeAt]);

  return {
    lib,
    resumeAt,
    dismissResume: useCallback(() => setResumeAt(null), []),
    /** Stores preferences (a stable function). */
    setPrefs: useCallback((p: Partial<PlayerPrefs>) => libRef.current.setPrefs(p), []),
    /** Stop saving this video's position (it failed). */
    freeze: useCallback(() => {
      frozen.current = true;
    }, []),
  };
}
