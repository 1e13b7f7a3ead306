import { useEffect, useRef, useState, type RefObject } from "react";
import { shouldLeaveLine, switchedNotice, type PlayLine } from "../playback/lines";
import { recentErrors, watchStalls } from "./stall-watch";
import type { StreamState } from "./useStream";

/** localStorage: the 线路 each title was last chosen on ({ [titleId]: index }). */
export const LINE_CHOICE_KEY = "yingshi:lines";
/** 已切换到线路2 stays this long. */
const NOTICE_MS = 4000;

function storedChoices(): Record<string, number> {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(LINE_CHOICE_KEY) ?? "{}");
    return raw && typeof raw === "object" ? (raw as Record<string, number>) : {};
  } catch {
    return {};
  }
}

/** The viewer's remembered line of a title (browser only), or null. */
export function rememberedLine(titleId: string): number | null {
  const value = storedChoices()[titleId];
  return typeof value === "number" ? value : null;
}

/** Remembers the viewer's line of a title (line 0, the default, is forgotten). */
export function rememberLine(titleId: string, index: number): void {
  try {
    const choices = storedChoices();
    if (index === 0) delete choices[titleId];
    else choices[titleId] = index;
    localStorage.setItem(LINE_CHOICE_KEY, JSON.stringify(choices));
  } catch {
    // storage full or refused: the choice lasts this page only
  }
}

/** Counts a line's failure on the site (概览's 线路故障): one beacon, never retried, never in the way. */
export function reportLineFailure(titleId: string, episode: number, line: number): void {
  const body = JSON.stringify({ episode, line });
  void fetch(`/api/lines/${encodeURIComponent(titleId)}/failures`, {
    method: "POST",
    body,
    keepalive: true,
    headers: { "content-type": "application/json" },
  }).catch(() => {});
}

/**
 * The 线路 failover's watch over the <video>: while it should play but is stalled with nothing
 * to show (stall-watch.ts), it weighs leaving the line (shared/playback/lines.ts shouldLeaveLine: at once after a
 * short stall when the line's requests fail, after a longer one otherwise, never offline) and asks
 * the stream for the next line. Returns the notice to show (已切换到线路2) after any switch the
 * player made by itself, and the function that starts it.
 */
export function useLineFailover(videoRef: RefObject<HTMLVideoElement | null>, lines: readonly PlayLine[], stream: StreamState) {
  const [notice, setNotice] = useState<string | null>(null);
  const { leaveLine, trouble } = stream;
  const multiple = lines.length > 1;
  // The browser's own HLS player hides its failing requests: a stall there asks the line itself
  // (./line-probe.ts, loaded after hydration and only for such a player with several lines).
  const native = multiple && stream.kind === "native";
  const probe = useRef<((master: string, time: number) => Promise<boolean>) | null>(null);
  const probed = lines[stream.line]?.kind === "hls" ? lines[stream.line].src : null;

  useEffect(() => {
    const video = videoRef.current;
    if (!native || !video) return;
    let live = true;
    let primeLine: ((master: string) => Promise<void>) | null = null;
    // The line's playlists are read once it plays (not during its start, on a slow link): the probe at a stall is then one request.
    const prime = () => {
      if (!primeLine || !probed || video.paused || video.readyState < 3) return; // 3: HAVE_FUTURE_DATA
      video.removeEventListener("playing", prime);
      void primeLine(probed);
    };
    void import("./line-probe").then(
      (m) => {
        if (!live) return;
        probe.current = m.probeLine;
        primeLine = m.primeLine;
        prime();
      },
      () => {},
    );
    video.addEventListener("playing", prime);
    return () => {
      live = false;
      video.removeEventListener("playing", prime);
    };
  }, [videoRef, native, probed]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !multiple) return;
    // The stall at hand (a probe answers only for the stall it was asked in), whether its probe was
    // asked, whether the line failed it, since when the element has been waiting (0: it is not)
    // and where (another position is another stall: a seek, or playback that moved on unseen).
    let stall = 0;
    let asked = -1;
    let probeFailed = false;
    let waitingSince = 0;
    let waitingAt = -1;
    const decide = (stalledMs: number): boolean => {
      const recent = recentErrors(trouble.current);
      const health = { fatal: false, stalledMs, networkErrors: recent, online: navigator.onLine !== false, hasNext: true, probeFailed };
      if (!shouldLeaveLine(health)) return false;
      leaveLine(probeFailed ? "分段请求失败" : recent > 0 ? "请求失败后卡顿" : "长时间卡顿");
      endStall(); // a probe still out answers for the stall that was left
      return true;
    };
    const endStall = () => {
      stall++;
      probeFailed = false;
      waitingSince = 0;
    };
    /** The element stands still here: the stall at hand, or a new one. */
    const stalledHere = () => {
      if (waitingSince > 0 && video.currentTime === waitingAt) return;
      endStall();
      waitingSince = performance.now();
      waitingAt = video.currentTime;
    };
    /** The browser's own HLS asks the line for the segment at the playhead, once per stall; a failing answer leaves at once. */
    const ask = () => {
      if (!native || !probe.current || !probed || asked === stall) return;
      const mine = (asked = stall);
      void probe.current(probed, video.currentTime).then((failing) => {
        if (mine !== stall) return;
        probeFailed = failing;
        // Still stalled: leave now rather than at the watch's next check.
        if (failing && !video.paused && waitingSince > 0) decide(performance.now() - waitingSince);
      });
    };
    // The element waits for data while it should play (a seek into an unbuffered part, an empty
    // buffer): the probe goes out at once, not after the watch has seen the clock stand still twice.
    const onWaiting = () => {
      // A line still starting (no metadata yet) is left to the watch, as before.
      if (video.paused || video.readyState < 1) return; // 1: HAVE_METADATA
      stalledHere();
      ask();
    };
    video.addEventListener("waiting", onWaiting);
    video.addEventListener("playing", endStall);
    const stopWatch = watchStalls(video, (stalledMs) => {
      if (stalledMs === 0) {
        // A stall begins (unless the element already said it waits here, and the probe is out).
        stalledHere();
        ask();
      }
      // The longer rules count from the watch's own start of the stall, as before.
      return decide(stalledMs);
    });
    return () => {
      video.removeEventListener("waiting", onWaiting);
      video.removeEventListener("playing", endStall);
      stopWatch();
    };
  }, [videoRef, multiple, native, probed, leaveLine, trouble]);

  useEffect(() => {
    if (notice === null) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  /** Shows the notice of the line the player moved to by itself. */
  const announce = (index: number) => {
    const line = lines[index];
    if (line) setNotice(switchedNotice(line));
  };
  return { notice, announce };
}
