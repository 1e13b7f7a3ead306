import { useMemo, useState, type RefObject } from "react";
import { DEFAULT_PREFS, type PlayerPrefs } from "../library";

const clamp = (x: number, min: number, max: number) => Math.min(max, Math.max(min, x));

/**
 * Commands on the <video> element (play, seek, volume, speed, picture-in-picture) and the
 * autoplay fallback: when sound is refused (NotAllowedError) it plays muted and asks to unmute.
 */
export function usePlayerCommands(videoRef: RefObject<HTMLVideoElement | null>, setPrefs: (p: Partial<PlayerPrefs>) => void) {
  const [needsUnmute, setNeedsUnmute] = useState(false);
  const commands = useMemo(() => {
    const el = () => videoRef.current as HTMLVideoElement;

    /** Plays; when sound is refused plays muted and asks to unmute. */
    const start = async () => {
      const v = el();
      try {
        await v.play();
      } catch (error) {
        // AbortError: interrupted by a pause or a new load; NotSupportedError: the `error` event handles it.
        if ((error as DOMException)?.name !== "NotAllowedError") return;
        if (v.muted) {
          console.info("浏览器阻止了自动播放，请点击播放", error);
          return;
        }
        v.muted = true;
        try {
          await v.play();
          setNeedsUnmute(true);
        } catch (again) {
          v.muted = false;
          console.info("浏览器阻止了自动播放，请点击播放", again);
        }
      }
    };

    /** Seeks; before the duration is known (a stream still loading) the time becomes the start position. */
    const seek = (t: number) => {
      const v = el();
      const end = v.duration;
      v.currentTime = Number.isFinite(end) && end > 0 ? clamp(t, 0, end) : Math.max(0, t);
    };

    const setVolume = (x: number, mute = x === 0) => {
      const v = el();
      const next = Math.round(clamp(x, 0, 1) * 10) / 10;
      v.volume = next;
      v.muted = mute || next === 0;
      if (!v.muted) setNeedsUnmute(false);
      setPrefs({ volume: next, muted: v.muted });
    };

    return {
      start,
      seek,
      setVolume,
      togglePlay: () => {
        const v = el();
        if (v.paused || v.ended) void start();
        else v.pause();
      },
      restart: () => {
        el().currentTime = 0;
        void start();
      },
      seekBy: (delta: number) => seek(el().currentTime + delta),
      unmute: () => setVolume(el().volume || DEFAULT_PREFS.volume, false),
      toggleMute: () => {
        const v = el();
        if (v.muted || v.volume === 0) setVolume(v.volume || DEFAULT_PREFS.volume, false);
        else setVolume(v.volume, true);
      },
      /** Sets the chosen speed (remembered). */
      changeRate: (r: number) => {
        const v = el();
        v.defaultPlaybackRate = r;
        v.playbackRate = r;
        setPrefs({ rate: r });
      },
      /** A temporary speed (long press): not remembered, the chosen one comes back with restoreRate(). */
      holdRate: (r: number) => {
        el().playbackRate = r;
      },
      restoreRate: () => {
        const v = el();
        v.playbackRate = v.defaultPlaybackRate;
      },
      togglePip: () => {
        if (document.pictureInPictureElement) void document.exitPictureInPicture().catch(() => {});
        else
          el()
            .requestPictureInPicture()
            .catch((error: unknown) => console.warn("无法开启画中画", error));
      },
    };
  }, [videoRef, setPrefs]);
  return { ...commands, needsUnmute };
}
