import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { inIntro, inOutro, OUTRO_COUNTDOWN_SECONDS, type EpisodeMarkers } from "../playback/markers";
import { useRoomGuest } from "./watch/useRoomGuest";

export interface IntroOutro {
  /** 跳过片头 is offered (the intro plays and the viewer does not skip intros automatically). */
  offerSkip: boolean;
  skipIntro: () => void;
  /** Seconds left of 即将播放下一集, or null. */
  countdown: number | null;
  cancelNext: () => void;
  /** The viewer cancelled the next episode: the end does not move on either. */
  cancelled: boolean;
}

/**
 * 片头 / 片尾 while playing (docs/decisions/0092-intro-outro.md): in the intro, 跳过片头 — or,
 * with 自动跳过片头片尾, a jump to its end (once per pass: seeking back into it plays it); at the
 * outro, with 自动连播 and a next episode, a 5-second countdown, then `onNext`, unless 取消 — not
 * for a guest of a 一起看 room, whose room moves on at the host's end only (watch/in-room.ts).
 */
export function useIntroOutro(
  videoRef: RefObject<HTMLVideoElement | null>,
  markers: EpisodeMarkers,
  options: { ready: boolean; autoSkip: boolean; autoNext: boolean; hasNext: boolean; onNext: () => void },
): IntroOutro {
  const [offerSkip, setOfferSkip] = useState(false);
  const [countdown, setCountdown] = useState<number | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const guest = useRoomGuest();
  const opts = useRef(options);
  useEffect(() => {
    opts.current = { ...options, autoNext: options.autoNext && !guest };
  });
  const skipped = useRef(false);
  const { intro, outro } = markers;

  const skipIntro = useCallback(() => {
    const v = videoRef.current;
    if (v && intro) v.currentTime = intro.end;
    setOfferSkip(false);
  }, [videoRef, intro]);

  useEffect(() => {
    const v = videoRef.current;
    if (!v || (!intro && !outro)) return;
    const onTime = () => {
      const { ready, autoSkip, autoNext, hasNext } = opts.current;
      if (!ready) return;
      const t = v.currentTime;
      const introNow = inIntro(t, intro);
      if (introNow && autoSkip && !skipped.current) {
        skipped.current = true;
        v.currentTime = (intro as NonNullable<typeof intro>).end;
        setOfferSkip(false);
      } else {
        setOfferSkip(introNow && !autoSkip);
      }
      if (!introNow && t < (intro?.start ?? 0)) skipped.current = false;
      if (inOutro(t, outro) && autoNext && hasNext) setCountdown((c) => c ?? OUTRO_COUNTDOWN_SECONDS);
    };
    v.addEventListener("timeupdate", onTime);
    return () => v.removeEventListener("timeupdate", onTime);
  }, [videoRef, intro, outro]);

  const counting = countdown !== null && !cancelled;
  useEffect(() => {
    if (!counting) return;
    if (countdown === 0) {
      opts.current.onNext();
      return;
    }
    const timer = setTimeout(() => setCountdown((c) => (c === null ? null : c - 1)), 1000);
    return () => clearTimeout(timer);
  }, [counting, countdown]);

  return {
    offerSkip,
    skipIntro,
    countdown: counting ? countdown : null,
    cancelNext: useCallback(() => setCancelled(true), []),
    cancelled,
  };
}
