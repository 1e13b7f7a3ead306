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
    // Which stall a probe answered for (each stall asks once), and whether the line failed it.
    let stall = 0;
    let probeFailed = false;
    return watchStalls(video, (stalledMs) => {
      if (stalledMs === 0) {
        // A stall begins: the browser's own HLS asks the line for the segment at the playhead.
        probeFailed = false;
        const asked = ++stall;
        if (native && probe.current && probed) {
          void probe.current(probed, video.currentTime).then((failing) => {
            if (asked === stall) probeFailed = failing;
          });
        }
      }
      const recent = recentErrors(trouble.current);
      const health = { fatal: false, stalledMs, networkErrors: recent, online: navigator.onLine !== false, hasNext: true, probeFailed };
      if (!shouldLeaveLine(health)) return false;
      leaveLine(probeFailed ? "分段请求失败" : recent > 0 ? "请求失败后卡顿" : "长时间卡顿");
      stall++; // a probe still out answers for the stall that was left
      return true;
    });
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
