import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type RefObject } from "react";
import type { QualityChoice } from "../library";
import type { Level } from "../playback/quality";
import type { EngineKind } from "../playback/engine-choice";
import { nextLine, type PlayLine } from "../playback/lines";
import { pageEngine } from "./page-engine";
import { loadAt, startEngine, switchSource, type ResumePoint, type StreamEngine } from "./stream-engine";

export interface StreamState {
  /** Engine in use; null before hydration. */
  kind: EngineKind | null;
  /** Renditions, lowest first (empty for the progressive file). */
  levels: Level[];
  /** Height now playing, when known. */
  height: number | null;
  /** The element is bound to its source: playback may start. */
  attached: boolean;
  setQuality: (choice: QualityChoice) => void;
  /** Call when the element reports an error: true when the player moved to another line or fell back to the MP4 (the error is handled). */
  fallBack: (reason: string) => boolean;
  /** The 线路 playing (an index of `lines`). */
  line: number;
  /** Plays another line from where this one is (the viewer's choice in the 线路 menu). */
  chooseLine: (index: number) => void;
  /** Leaves the line playing for the next one that has not failed: false when none is left. */
  leaveLine: (reason: string) => boolean;
  /** Network errors seen on the line playing, and when the last one was (ms, performance.now). */
  trouble: RefObject<{ errors: number; lastAt: number }>;
  /** Starts the stream afresh at `at` after an outage: every line counts as working again, the MP4 fallback is undone. */
  reload: (at: ResumePoint) => void;
  /** Moves playback to the progressive MP4 at the same position (投屏 of a `blob:` source): false when it already plays it. */
  playProgressive: () => boolean;
}

const noSubscription = () => () => {};
const serverEngine = () => null;

export interface StreamWiring {
  /** The line to start on (the viewer's remembered choice): known in the browser only, null until then. */
  startLine: number | null;
  /** The player moved to another line by itself (failover) — for the notice and the failure count. */
  onLineFailed: (failed: number, next: number) => void;
}

/**
 * The title's stream on the <video> element, over its 线路 (shared/playback/lines.ts): picks the
 * engine once mounted, reports the renditions and the height in use; when a line fails it goes on
 * with the next one at the same position, and when every line has failed it falls back to the
 * progressive MP4 (keeping the position) — before the player's own error handling (another video)
 * applies.
 */
export function useStream(
  videoRef: RefObject<HTMLVideoElement | null>,
  lines: readonly PlayLine[],
  mp4: string,
  storedChoice: QualityChoice | null,
  wiring: StreamWiring,
): StreamState {
  // The engine depends on the browser: unknown (null) on the server and while hydrating, then read once.
  const detected = useSyncExternalStore(noSubscription, pageEngine, serverEngine);
  const [fellBackKind, setFellBackKind] = useState<EngineKind | null>(null);
  const kind = fellBackKind ?? detected;
  const [levels, setLevels] = useState<Level[]>([]);
  const [height, setHeight] = useState<number | null>(null);
  const [attached, setAttached] = useState(false);
  const [line, setLine] = useState(0);
  /** Bumped by `reload`: the engine starts again. */
  const [generation, setGeneration] = useState(0);
  const engine = useRef<StreamEngine | null>(null);
  const fellBack = useRef(false);
  const failed = useRef(new Set<number>());
  /** Where the next line goes on (null: the page's own start on the line the server rendered). */
  const resume = useRef<ResumePoint | null>(null);
  const trouble = useRef({ errors: 0, lastAt: 0 });
  // The stored 清晰度 is known once the browser's library is read (null until then): the engine
  // starts only then, so a remembered rendition is the first one loaded, not a switch after auto.
  const choice = useRef(storedChoice);
  const wired = useRef(wiring);
  const lineRef = useRef(line);
  /** The line goTo asked for, until the engine's effect runs with it. */
  const pending = useRef<number | null>(null);
  useEffect(() => {
    choice.current = storedChoice; // runs before the engine's effect below
    wired.current = wiring;
    lineRef.current = line;
  });
  const choiceKnown = storedChoice !== null;
  const startKnown = wiring.startLine !== null;

  /** To the progressive MP4 at the same position, for good: after a failure (`reason`), or for 投屏 (null). */
  const toProgressive = useCallback(
    (reason: string | null) => {
      const video = videoRef.current;
      if (fellBack.current || !video) return false;
      fellBack.current = true;
      if (reason !== null) console.warn(`自适应码流播放失败，改用 MP4：${reason}`);
      // Read before hls.js lets go of the element: detaching empties it (position 0, paused, nothing played).
      const at = { time: video.currentTime, play: !video.paused };
      const hadPlayed = video.played.length > 0;
      engine.current?.destroy();
      engine.current = null;
      setLevels([]);
      setHeight(null);
      setFellBackKind("progressive");
      loadAt(video, mp4, at, hadPlayed);
      setAttached(true);
      return true;
    },
    [videoRef, mp4],
  );

  const goTo = useCallback(
    (index: number) => {
      const video = videoRef.current;
      if (!video || index === (pending.current ?? lineRef.current)) return;
      pending.current = index;
      resume.current = { time: video.currentTime, play: !video.paused || video.autoplay };
      trouble.current = { errors: 0, lastAt: 0 };
      setLevels([]);
      setHeight(null);
      setLine(index);
    },
    [videoRef],
  );

  const leaveLine = useCallback(
    (reason: string) => {
      if (fellBack.current) return false;
      const current = pending.current ?? lineRef.current;
      failed.current.add(current);
      const next = nextLine(lines.length, current, failed.current);
      if (next === null) return false;
      console.warn(`${lines[current]?.name ?? "线路"}播放失败，改用${lines[next].name}：${reason}`);
      goTo(next);
      wired.current.onLineFailed(current, next);
      return true;
    },
    [lines, goTo],
  );

  const fallBack = useCallback((reason: string) => leaveLine(reason) || toProgressive(reason), [leaveLine, toProgressive]);

  const playing = lines[line] ?? lines[0];
  const src = playing?.src ?? mp4;
  const lineKind = playing?.kind ?? "mp4";

  const reload = useCallback(
    (at: ResumePoint) => {
      const video = videoRef.current;
      if (!video) return;
      failed.current.clear();
      trouble.current = { errors: 0, lastAt: 0 };
      // The browser plays only the MP4, or the line is an MP4 of its own: load it again.
      if (detected === "progressive" || lineKind === "mp4") return loadAt(video, detected === "progressive" ? mp4 : src, at);
      fellBack.current = false;
      setFellBackKind(null);
      resume.current = at;
      setGeneration((g) => g + 1);
    },
    [videoRef, detected, lineKind, mp4, src],
  );

  // The remembered line, once the browser knows it.
  useEffect(() => {
    if (wiring.startLine !== null && wiring.startLine !== 0) goTo(wiring.startLine);
  }, [wiring.startLine, goTo]);

  useEffect(() => {
    const video = videoRef.current;
    const chosen = detected;
    if (!video || !chosen || fellBack.current) return;
    if (chosen === "progressive") {
      // Neither native HLS nor MSE: the MP4 from the start (`attached` below is true for it); the
      // server may already have put it in the element (?engine=progressive), then it stays as it is.
      fellBack.current = true;
      if (new URL(video.currentSrc || location.href, location.href).pathname !== mp4) switchSource(video, mp4);
      return;
    }
    if (!choiceKnown || !startKnown) return;
    // A line was asked for and this run is still the one before it (no engine for a line left at once).
    if (pending.current !== null && pending.current !== line) return;
    pending.current = null;
    const at = resume.current;
    resume.current = null;
    if (lineKind === "mp4") {
      // An external MP4 line: the element plays it itself; its errors come to fallBack.
      if (at) loadAt(video, src, at);
      else switchSource(video, src);
      return;
    }
    // A <source> that fails to load (no playlist, unplayable) fires its error on the <source> element;
    // once the player has set the element's own src (a 清晰度 choice, another line, the MP4) the <source> is out of play.
    const onSourceError = (event: Event) => {
      if (event.target instanceof HTMLSourceElement && !video.hasAttribute("src")) fallBack("播放列表无法加载");
    };
    video.addEventListener("error", onSourceError, true);
    engine.current = startEngine(
      chosen,
      video,
      src,
      choice.current ?? "auto",
      {
        onLevels: setLevels,
        onHeight: setHeight,
        onFatal: fallBack,
        onAttached: () => setAttached(true),
        onTrouble: () => {
          trouble.current = { errors: trouble.current.errors + 1, lastAt: performance.now() };
        },
      },
      at,
    );
    return () => {
      video.removeEventListener("error", onSourceError, true);
      engine.current?.destroy();
      engine.current = null;
    };
    // Once per player and line (the page gives every title a fresh player with key={id}) and
    // again after an outage's reload; the stored choice is read once.
  }, [videoRef, line, src, lineKind, mp4, fallBack, detected, choiceKnown, startKnown, generation]);

  return {
    kind: lineKind === "mp4" && !fellBackKind ? "progressive" : kind,
    levels,
    height,
    attached: attached || detected === "progressive" || lineKind === "mp4",
    setQuality: useCallback((c: QualityChoice) => engine.current?.setQuality(c), []),
    fallBack,
    line,
    chooseLine: goTo,
    leaveLine,
    trouble,
    reload,
    playProgressive: useCallback(() => toProgressive(null), [toProgressive]),
  };
}
