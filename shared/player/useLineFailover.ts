import { useEffect, useRef, useState, type RefObject } from "react";
import { shouldLeaveLine, switchedNotice, type PlayLine } from "../playback/lines";
import type { StreamState } from "./useStream";

/** localStorage: the 线路 each title was last chosen on ({ [titleId]: index }). */
export const LINE_CHOICE_KEY = "yingshi:lines";
/** Network errors older than this no longer count against a line. */
const TROUBLE_WINDOW_MS = 30_000;
/** How often a stalled player weighs leaving its line. */
const CHECK_EVERY_MS = 250;
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
 * to show (polled every CHECK_EVERY_MS), it weighs leaving the line (shared/playback/lines.ts shouldLeaveLine: at once after a
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
    if (!native) return;
    let live = true;
    void import("./line-probe").then(
      (m) => live && (probe.current = m.probeLine),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [native]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !multiple) return;
    // Polled rather than driven by `waiting`: a player that never got going (no data at all) fires none.
    let stalledSince = 0;
    let lastTime = -1;
    // Which stall a probe answered for (each stall asks once), and whether the line failed it.
    let stall = 0;
    let probeFailed = false;
    const check = () => {
      const now = performance.now();
      const stuck = !video.paused && !video.ended && video.readyState < 3 && video.currentTime === lastTime;
      lastTime = video.currentTime;
      if (!stuck) {
        stalledSince = 0;
        return;
      }
      if (!stalledSince) {
        stalledSince = now;
        probeFailed = false;
        const asked = ++stall;
        if (native && probe.current && probed) {
          void probe.current(probed, video.currentTime).then((failing) => {
            if (asked === stall && stalledSince) probeFailed = failing;
          });
        }
      }
      const recent = now - trouble.current.lastAt < TROUBLE_WINDOW_MS ? trouble.current.errors : 0;
      const online = navigator.onLine !== false;
      const health = { fatal: false, stalledMs: now - stalledSince, networkErrors: recent, online, hasNext: true, probeFailed };
      if (!shouldLeaveLine(health)) return;
      stalledSince = 0;
      leaveLine(probeFailed ? "分段请求失败" : recent > 0 ? "请求失败后卡顿" : "长时间卡顿");
    };
    const timer = setInterval(check, CHECK_EVERY_MS);
    return () => clearInterval(timer);
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
