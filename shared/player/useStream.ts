import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type RefObject } from "react";
import type { QualityChoice } from "../library";
import type { Level } from "../playback/quality";
import type { EngineKind } from "../playback/engine-choice";
import { pageEngine } from "./page-engine";
import { startEngine, switchSource, type StreamEngine } from "./stream-engine";

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
  /** Call when the element reports an error: true when the player fell back to the MP4 (the error is handled). */
  fallBack: (reason: string) => boolean;
}

const noSubscription = () => () => {};
const serverEngine = () => null;

/**
 * The title's adaptive stream on the <video> element: picks the engine once mounted, reports the
 * renditions and the height in use, and falls back to the progressive MP4 (keeping the position)
 * when the stream fails — before the player's own error handling (another video) applies.
 */
export function useStream(videoRef: RefObject<HTMLVideoElement | null>, master: string, mp4: string, storedChoice: QualityChoice | null): StreamState {
  // The engine depends on the browser: unknown (null) on the server and while hydrating, then read once.
  const detected = useSyncExternalStore(noSubscription, pageEngine, serverEngine);
  const [fellBackKind, setFellBackKind] = useState<EngineKind | null>(null);
  const kind = fellBackKind ?? detected;
  const [levels, setLevels] = useState<Level[]>([]);
  const [height, setHeight] = useState<number | null>(null);
  const [attached, setAttached] = useState(false);
  const engine = useRef<StreamEngine | null>(null);
  const fellBack = useRef(false);
  // The stored 清晰度 is known once the browser's library is read (null until then): the engine
  // starts only then, so a remembered rendition is the first one loaded, not a switch after auto.
  const choice = useRef(storedChoice);
  useEffect(() => {
    choice.current = storedChoice; // runs before the engine's effect below
  });
  const choiceKnown = storedChoice !== null;

  const fallBack = useCallback(
    (reason: string) => {
      const video = videoRef.current;
      if (fellBack.current || !video) return false;
      fellBack.current = true;
      console.warn(`自适应码流播放失败，改用 MP4：${reason}`);
      engine.current?.destroy();
      engine.current = null;
      setLevels([]);
      setHeight(null);
      setFellBackKind("progressive");
      switchSource(video, mp4);
      setAttached(true);
      return true;
    },
    [videoRef, mp4],
  );

  useEffect(() => {
    const video = videoRef.current;
    const chosen = detected;
    if (!video || !chosen) return;
    if (chosen === "progressive") {
      // Neither native HLS nor MSE: the MP4 from the start (`attached` below is true for it); the
      // server may already have put it in the element (?engine=progressive), then it stays as it is.
      fellBack.current = true;
      if (new URL(video.currentSrc || location.href, location.href).pathname !== mp4) switchSource(video, mp4);
      return;
    }
    if (!choiceKnown) return;
    // A <source> that fails to load (no playlist, unplayable) fires its error on the <source> element;
    // once the player has set the element's own src (a 清晰度 choice, the MP4) the <source> is out of play.
    const onSourceError = (event: Event) => {
      if (event.target instanceof HTMLSourceElement && !video.hasAttribute("src")) fallBack("播放列表无法加载");
    };
    video.addEventListener("error", onSourceError, true);
    engine.current = startEngine(chosen, video, master, choice.current ?? "auto", {
      onLevels: setLevels,
      onHeight: setHeight,
      onFatal: fallBack,
      onAttached: () => setAttached(true),
    });
    return () => {
      video.removeEventListener("error", onSourceError, true);
      engine.current?.destroy();
      engine.current = null;
    };
    // Once per player (the page gives every title a fresh player with key={id}); the stored choice is read once.
  }, [videoRef, master, mp4, fallBack, detected, choiceKnown]);

  return {
    kind,
    levels,
    height,
    attached: attached || detected === "progressive",
    setQuality: useCallback((choice: QualityChoice) => engine.current?.setQuality(choice), []),
    fallBack,
  };
}
