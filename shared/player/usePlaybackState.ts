import { useEffect, useState, type RefObject } from "react";
import { DEFAULT_PREFS } from "../library";

export interface PlaybackState {
  playing: boolean;
  muted: boolean;
  volume: number;
  rate: number;
  /** Seconds. */
  time: number;
  /** Seconds; 0 while unknown. */
  duration: number;
  /** Waiting for data while it should be playing (the spinner shows). */
  waiting: boolean;
}

const INITIAL: PlaybackState = {
  playing: false,
  muted: DEFAULT_PREFS.muted,
  volume: DEFAULT_PREFS.volume,
  rate: DEFAULT_PREFS.rate,
  time: 0,
  duration: 0,
  waiting: false,
};

/** The element's events that change what the controls show. */
const EVENTS = [
  "play",
  "pause",
  "playing",
  "waiting",
  "timeupdate",
  "seeking",
  "seeked",
  "durationchange",
  "loadedmetadata",
  "volumechange",
  "ratechange",
  "ended",
  "emptied",
] as const;

/** What the controls show, read from the <video> element's own events (the element is the source of truth). */
export function usePlaybackState(videoRef: RefObject<HTMLVideoElement | null>): PlaybackState {
  const [state, setState] = useState(INITIAL);
  useEffect(() => {
    const v = videoRef.current;
    if (!v) return;
    const read = (event?: Event) =>
      setState((prev) => {
        const next: PlaybackState = {
          playing: !v.paused && !v.ended,
          muted: v.muted,
          volume: v.volume,
          rate: v.playbackRate,
          time: v.currentTime,
          duration: Number.isFinite(v.duration) ? v.duration : 0,
          waiting: event?.type === "waiting" ? true : event?.type === "playing" || event?.type === "pause" || event?.type === "emptied" ? false : prev.waiting,
        };
        return (Object.keys(next) as (keyof PlaybackState)[]).every((k) => next[k] === prev[k]) ? prev : next;
      });
    read();
    for (const type of EVENTS) v.addEventListener(type, read);
    return () => {
      for (const type of EVENTS) v.removeEventListener(type, read);
    };
  }, [videoRef]);
  return state;
}
