import { useCallback, useRef, useState, type RefObject, type SyntheticEvent } from "react";
import { useNavigate } from "react-router";
import { HLS_MIME } from "../playback/engine-choice";
import { MAX_FAILURES, recordFailure, resetFailures } from "../playback/failure-counter";

interface FailureWiring {
  /** The file named in the console message. */
  videoFile: string;
  /** Where a video that cannot play is replaced (until MAX_FAILURES in a row: then 播放失败 stays). */
  failedPath: string;
  /** useStream's fallback to the next engine: true when it took the error over. */
  fallBack: (reason: string) => boolean;
  /** Stops remembering the position (usePlaybackMemory). */
  freeze: () => void;
  /** Starts playback again after 重试. */
  start: () => Promise<void>;
  /** Tells the worker of a fatal error (the error beacon): called once per player, i.e. per page view. */
  report: () => void;
}

/**
 * What the player does when its <video> fails: a stream's own errors go to the engine fallback;
 * otherwise the page moves on to `failedPath`, or after MAX_FAILURES in a row shows the error
 * overlay with 重试. A start that plays resets the count. The first such error of the player
 * (a page view: players are keyed per title and episode) is reported once (`wiring.report`).
 */
export function usePlaybackFailure(videoRef: RefObject<HTMLVideoElement | null>, wiring: FailureWiring) {
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  const handled = useRef(false);
  const reported = useRef(false);

  const onError = (event: SyntheticEvent<HTMLVideoElement>) => {
    // React passes the error of a <source> up to the <video>: a stream's <source> is useStream's to handle.
    if (event.target instanceof HTMLSourceElement && event.target.type === HLS_MIME) return;
    if (handled.current) return;
    const error = videoRef.current?.error;
    if (wiring.fallBack(error ? `(${error.code}) ${error.message}` : "媒体错误")) return;
    console.error(`视频播放失败：${wiring.videoFile}`, error ? `(${error.code}) ${error.message}` : "");
    handled.current = true;
    if (!reported.current) {
      reported.current = true;
      wiring.report();
    }
    wiring.freeze();
    if (recordFailure() >= MAX_FAILURES) setFailed(true);
    else void navigate(wiring.failedPath, { replace: true });
  };

  const retry = () => {
    resetFailures();
    handled.current = false;
    setFailed(false);
    videoRef.current?.load();
    void wiring.start();
  };

  const onPlaying = () => {
    resetFailures();
    setFailed(false);
  };

  /** True once an error was handled (no automatic start after that). */
  const isHandled = useCallback(() => handled.current, []);

  return { failed, onError, retry, onPlaying, isHandled };
}
