/**
 * What the 一起看 bench (scripts/bench-watch/run.ts) installs in every member's pages before any
 * of the page's own scripts: the media events of the page's <video> (capture phase on the
 * document, so a new <video> after an episode change is covered), a reading of the player four
 * times a second, and the first frame presented once the room's panel says 已同步. Every time is
 * epoch ms (performance.timeOrigin + …), so times from different members' pages compare.
 */

export interface ProbeEvent {
  type: string;
  t: number;
  ct: number;
  rate: number;
  paused: boolean;
  path: string;
}

export interface ProbeSample {
  t: number;
  ct: number;
  rate: number;
  paused: boolean;
  path: string;
}

export interface ProbeState {
  events: ProbeEvent[];
  samples: ProbeSample[];
  /** The first frame presented (requestVideoFrameCallback), epoch ms. */
  firstFrame: number | null;
  /** The first frame presented while playing with the panel's data-synced="true": time and media time. */
  syncedFrame: { t: number; mediaTime: number } | null;
}

export const EVENT_TYPES = ["play", "playing", "pause", "seeking", "seeked", "ratechange", "waiting", "emptied", "loadstart", "loadedmetadata"] as const;

/** The probe (serialised into the page: nothing outside the function is in scope there). */
export const PROBE = (nickname: string) => {
  try {
    localStorage.setItem("yingshi-watch-nickname", nickname);
  } catch {
    // no storage: the member types its nickname
  }
  const at = (ms: number) => performance.timeOrigin + ms;
  const w = window as unknown as { __wb: ProbeState };
  w.__wb = { events: [], samples: [], firstFrame: null, syncedFrame: null };
  const videoOf = () => document.querySelector<HTMLVideoElement>("video.player-video");
  for (const type of ["play", "playing", "pause", "seeking", "seeked", "ratechange", "waiting", "emptied", "loadstart", "loadedmetadata"]) {
    document.addEventListener(
      type,
      (e) => {
        if (!(e.target instanceof HTMLVideoElement)) return;
        const v = e.target;
        w.__wb.events.push({ type, t: at(performance.now()), ct: v.currentTime, rate: v.playbackRate, paused: v.paused, path: location.pathname });
      },
      true,
    );
  }
  const watched = new WeakSet<HTMLVideoElement>();
  setInterval(() => {
    const v = videoOf();
    if (v) w.__wb.samples.push({ t: at(performance.now()), ct: v.currentTime, rate: v.playbackRate, paused: v.paused, path: location.pathname });
    if (!v || watched.has(v) || !("requestVideoFrameCallback" in v)) return;
    watched.add(v);
    const onFrame = (_now: number, meta: VideoFrameCallbackMetadata) => {
      const t = at(meta.presentationTime);
      w.__wb.firstFrame ??= t;
      const synced = document.querySelector(".watch-panel")?.getAttribute("data-synced") === "true";
      if (synced && !v.paused && w.__wb.syncedFrame === null) w.__wb.syncedFrame = { t, mediaTime: meta.mediaTime };
      if (w.__wb.syncedFrame === null) v.requestVideoFrameCallback(onFrame);
    };
    v.requestVideoFrameCallback(onFrame);
  }, 250);
};
