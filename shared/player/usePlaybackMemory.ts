import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { useLibrary } from "../components/library-context";
import { resumePosition, type PlayerPrefs } from "../library";
import { playerConfig } from "../playback/config";
import { resumeTarget, type Marker } from "../playback/markers";
import { canSavePosition, positionToSave, savePositionDue } from "../playback/playback-memory";

/**
 * What the player remembers: the watch position (saved every few seconds of playback, on pause,
 * on leaving the page and on unmount), the 从 m:ss 继续播放 offer, and the stored preferences,
 * which are applied once known — then `onReady` starts playback. Each episode of a series has its
 * own position (`episode`, 1 for single titles). While the offer stands, playing from the start
 * does not overwrite the saved position; dismissing it (or letting it time out) does.
 */
export function usePlaybackMemory(
  videoRef: RefObject<HTMLVideoElement | null>,
  id: string,
  episode: number,
  onReady: () => void,
  lastEpisode = true,
  intro: Marker | null = null,
  /** The link names where to start (?t=): no saved position is offered. */
  startGiven = false,
) {
  const lib = useLibrary();
  const libRef = useRef(lib);
  const onReadyRef = useRef(onReady);
  useEffect(() => {
    libRef.current = lib;
    onReadyRef.current = onReady;
  });
  const [resumeAt, setResumeAt] = useState<number | null>(null);
  /** The offered position while the offer stands (read by `save`). */
  const offered = useRef<number | null>(null);
  useEffect(() => {
    offered.current = resumeAt;
  }, [resumeAt]);
  const started = useRef(false);
  const lastSaved = useRef(0);
  /** Set when the player gives up on this video: its position is not worth keeping. */
  const frozen = useRef(false);

  const save = useCallback(() => {
    const v = videoRef.current;
    if (!v || !canSavePosition(v, frozen.current)) return;
    lastSaved.current = v.currentTime;
    // While 从 m:ss 继续播放 is offered, the autoplay from the start must not overwrite the
    // saved position: leaving after a few seconds keeps it (and the title moves to the front).
    libRef.current.savePosition(id, positionToSave(v.currentTime, offered.current), v.duration, episode, lastEpisode);
  }, [videoRef, id, episode, lastEpisode]);

  useEffect(() => {
    const v = videoRef.current;
    if (!v) return;
    const onTime = () => {
      if (savePositionDue(v.currentTime, lastSaved.current)) save();
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
    // A viewer who skips intros is never offered a position inside one (docs/decisions/0092-intro-outro.md).
    const saved = resumePosition(lib.library, id, episode);
    setResumeAt(saved === null || startGiven ? null : resumeTarget(saved, intro, lib.prefs.autoSkip));
    onReadyRef.current();
  }, [videoRef, lib.ready, lib.prefs, lib.library, id, episode, intro, startGiven]);

  useEffect(() => {
    if (resumeAt === null) return;
    const timer = setTimeout(() => setResumeAt(null), playerConfig.resumePromptMs);
    return () => clearTimeout(timer);
  }, [resumeAt]);

  return {
    lib,
    resumeAt,
    dismissResume: useCallback(() => {
      // At once, not after the next render: a seek or pause right after accepting or closing the
      // offer must save its own position, not the offered one.
      offered.current = null;
      setResumeAt(null);
    }, []),
    /** Stores preferences (a stable function). */
    setPrefs: useCallback((p: Partial<PlayerPrefs>) => libRef.current.setPrefs(p), []),
    /** Stop saving this video's position (it failed). */
    freeze: useCallback(() => {
      frozen.current = true;
    }, []),
  };
}
