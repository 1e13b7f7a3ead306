import { useCallback, useEffect, useRef, useState, type RefObject, type SyntheticEvent } from "react";
import { useNavigate } from "../router";
import { HLS_MIME } from "../playback/engine-choice";
import { MAX_FAILURES, recordFailure, resetFailures } from "../playback/failure-counter";
import { isOutage, OUTAGE_STALL_MS, probeVerdict, retryDelayMs, type MediaProbe } from "../playback/media-outage";
import { watchStalls } from "./stall-watch";
import { inRoom } from "./watch/in-room";
import type { ResumePoint } from "./stream-engine";

interface FailureWiring {
  /** The file named in the console message, and probed after a failure (is it there, is storage down?). */
  videoFile: string;
  /** Where a video that cannot play is replaced (until MAX_FAILURES in a row: then 播放失败 stays; in a 一起看 room never). */
  failedPath: string;
  /** useStream's fallback to the next engine: true when it took the error over. */
  fallBack: (reason: string) => boolean;
  /** Starts the stream afresh at a position (useStream's reload). */
  reload: (at: ResumePoint) => void;
  /** Stops remembering the position (usePlaybackMemory). */
  freeze: () => void;
  /** Starts playback again after 重试. */
  start: () => Promise<void>;
  /** Tells the worker of a fatal error (the error beacon): called once per player, i.e. per page view. */
  report: () => void;
}

/** A small request for the media: is it there, failing for now, or gone? */
async function probeMedia(url: string): Promise<MediaProbe> {
  try {
    const res = await fetch(url, { headers: { Range: "bytes=0-0" }, cache: "no-store" });
    void res.body?.cancel();
    return probeVerdict(res.status);
  } catch {
    return probeVerdict(null);
  }
}

/**
 * What the player does when its <video> fails. A stream's own errors go to the engine fallback.
 * When the media is down for now (storage answering 5xx, a broken download: media-outage.ts) the
 * player shows 加载失败，点击重试 (`outage`) and starts the stream again at the same position with
 * back-off, at once on a tap or when the device comes back online; a long stall asks the media
 * itself and, when it is down, does the same (the browser's own HLS may stall without an error). A file that is missing or broken moves the page
 * on to `failedPath`, or after MAX_FAILURES in a row — or at once in a 一起看 room, which the
 * viewer must not leave silently — shows the error overlay with 重试. A start
 * that plays resets all of it. The first fatal error of the player (a page view: players are keyed
 * per title and episode) is reported once (`wiring.report`).
 */
export function usePlaybackFailure(videoRef: RefObject<HTMLVideoElement | null>, wiring: FailureWiring) {
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  const [outage, setOutage] = useState(false);
  const handled = useRef(false);
  const reported = useRef(false);
  const wired = useRef(wiring);
  /** The last position that played: where a retry goes on (a failed load has put the element at 0). */
  const position = useRef(0);
  const attempt = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    wired.current = wiring;
  });

  const reloadNow = useCallback(() => {
    clearTimeout(timer.current);
    handled.current = false;
    wired.current.reload({ time: position.current, play: true });
  }, []);

  /** The automatic retries, after the back-off each: the stream starts again once the media answers. */
  const scheduleRetry = useCallback(() => {
    const next = () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        if (!videoRef.current?.isConnected) return; // the player is gone
        void probeMedia(wired.current.videoFile).then((probe) => (probe === "down" ? next() : reloadNow()));
      }, retryDelayMs(attempt.current++));
    };
    next();
  }, [videoRef, reloadNow]);

  useEffect(() => {
    const v = videoRef.current;
    if (!v) return;
    const onTime = () => {
      if (v.currentTime > 0 && v.readyState >= 2) position.current = v.currentTime;
    };
    const onOnline = () => {
      if (handled.current) reloadNow();
    };
    v.addEventListener("timeupdate", onTime);
    window.addEventListener("online", onOnline);
    // A long stall: is the media down? (Once per stall; not while the outage is known already.)
    let probing = false;
    const stopWatch = watchStalls(v, (stalledMs) => {
      if (stalledMs < OUTAGE_STALL_MS || probing || handled.current) return false;
      probing = true;
      void probeMedia(wired.current.videoFile).then((probe) => {
        probing = false;
        if (handled.current || (probe !== "down" && navigator.onLine !== false)) return;
        handled.current = true;
        setOutage(true);
        scheduleRetry();
      });
      return true;
    });
    return () => {
      v.removeEventListener("timeupdate", onTime);
      window.removeEventListener("online", onOnline);
      stopWatch();
      clearTimeout(timer.current);
    };
  }, [videoRef, reloadNow, scheduleRetry]);

  const onError = (event: SyntheticEvent<HTMLVideoElement>) => {
    // React passes the error of a <source> up to the <video>: a stream's <source> is useStream's to handle.
    if (event.target instanceof HTMLSourceElement && event.target.type === HLS_MIME) return;
    if (handled.current) return;
    const error = videoRef.current?.error;
    const reason = error ? `(${error.code}) ${error.message}` : "媒体错误";
    if (wiring.fallBack(reason)) return;
    handled.current = true;
    if (!reported.current) {
      reported.current = true;
      wiring.report();
    }
    void probeMedia(wiring.videoFile).then((probe) => {
      if (isOutage(error?.code ?? null, probe)) {
        console.warn(`视频暂时无法加载，稍后自动重试：${wiring.videoFile}`, reason);
        setOutage(true);
        scheduleRetry();
        return;
      }
      console.error(`视频播放失败：${wiring.videoFile}`, reason);
      wiring.freeze();
      if (inRoom() || recordFailure() >= MAX_FAILURES) setFailed(true);
      else void navigate(wiring.failedPath, { replace: true });
    });
  };

  const retry = () => {
    resetFailures();
    handled.current = false;
    setFailed(false);
    videoRef.current?.load();
    void wiring.start();
  };

  /** 加载失败，点击重试: at once, at the same position. */
  const retryOutage = () => {
    setOutage(false);
    reloadNow();
  };

  const onPlaying = () => {
    handled.current = false;
    resetFailures();
    setFailed(false);
    setOutage(false);
    attempt.current = 0;
    clearTimeout(timer.current);
  };

  /** True once an error was handled (no automatic start after that). */
  const isHandled = useCallback(() => handled.current, []);

  return { failed, outage, onError, retry, retryOutage, onPlaying, isHandled };
}
