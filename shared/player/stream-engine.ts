import type { QualityChoice } from "../library";
import type { EngineKind } from "../playback/engine-choice";
import { loadHls } from "./load-hls";
import type { EngineEvents, HlsPlayback } from "./hls-playback";
import { levelForChoice, levelForLink, nearestHeight, sortedLevels, type Level } from "../playback/quality";
import { inRoom, ROOM_ROLE, ROOM_START_WAITING } from "./watch/in-room";
import { browserConnection } from "./page-engine";

export type { EngineEvents } from "./hls-playback";

/** The engines that bind a title's stream to the <video> element (shared/playback/engine-choice.ts decides which one). */

export interface StreamEngine {
  readonly kind: EngineKind;
  setQuality: (choice: QualityChoice) => void;
  destroy: () => void;
}

/**
 * Goes to `time` once the new source has metadata (a source switch keeps the position). Playback
 * is asked for at once, so the element waits to play (not paused) while the source loads: a
 * source that never loads is a stall the player sees (usePlaybackFailure.ts), not a pause.
 */
function resumeAt(video: HTMLVideoElement, time: number, play: boolean): void {
  // Not when the source already starts there (a media fragment, below): a seek to where it stands would load again.
  if (time > 0) video.addEventListener("loadedmetadata", () => Math.abs(video.currentTime - time) > 0.25 && (video.currentTime = time), { once: true });
  if (play) video.play().catch(() => {});
}

/** Swaps the element's source and keeps the position and play state. */
export function switchSource(video: HTMLVideoElement, url: string): void {
  loadAt(video, url, { time: video.currentTime, play: !video.paused });
}

/**
 * Loads `url` into the element and goes on at `at`. A load sets the element's autoplaying flag
 * again, so the server's <video autoplay> would start a video the viewer had paused by itself once
 * the new source had enough data (a 投屏 switch found it playing): where it had played and is not
 * to play on, pause() clears that flag (no event: a loading element already stands paused). An
 * element that has not played yet (the page's start) keeps its autoplay.
 */
export function loadAt(video: HTMLVideoElement, url: string, at: ResumePoint, hadPlayed = video.played.length > 0): void {
  // Read before the load, which empties the played ranges (the caller reads it sooner where an engine let go of the element first).
  const pausedByViewer = !at.play && hadPlayed;
  video.src = url;
  video.load();
  if (pausedByViewer) video.pause();
  resumeAt(video, at.time, at.play);
}

/** A URL as the player keeps it: a path on this site, the whole URL on another host (a 线路's). */
const sitePath = (url: URL) => (url.origin === location.origin ? url.pathname : url.href);

async function fetchLevels(master: string): Promise<Level[]> {
  // The playlist parser is not needed before the page is interactive: it comes with the playlist.
  const [res, { parseMasterPlaylist }] = await Promise.all([fetch(master), import("../stream/hls-parse")]);
  if (!res.ok) throw new Error(`master playlist ${res.status}`);
  const base = new URL(master, location.href);
  return sortedLevels(
    parseMasterPlaylist(await res.text()).variants.map((v) => ({ height: v.height, bandwidth: v.bandwidth, url: sitePath(new URL(v.uri, base)) })),
  );
}

/** Where a 线路 switch goes on: the position and whether it was playing (null: the page's own start). */
export interface ResumePoint {
  time: number;
  play: boolean;
}

/**
 * The rendition native HLS plays for a choice: the chosen one; for automatic, the master playlist
 * (the browser's own switching), except in a 一起看 room, where it is the one that fits the
 * browser's link estimate: Chromium's own HLS goes back to a high rendition after each seek and
 * stalls for seconds on a slow link, and a room's members seek whenever one of them does
 * (docs/decisions/0100-watch-rooms.md).
 */
function nativeLevel(levels: readonly Level[], choice: QualityChoice): Level | null {
  if (choice !== "auto") return levelForChoice(levels, choice);
  return inRoom() ? levelForLink(levels, browserConnection()?.downlink) : null;
}

/** A URL with a media fragment that starts the browser's player at `time` (s; none at 0). */
const fromTime = (url: string, time: number) => (time > 0 ? `${url}#t=${time.toFixed(3)}` : url);

/** Whether the element has nothing to load (the head script took the src off its <source>: a page opened in a room). */
const hasNoSource = (video: HTMLVideoElement) => !video.hasAttribute("src") && !video.querySelector("source[src]");

/**
 * Native HLS: the element already has the master playlist as its <source>, unless `resume` asks
 * for another line, or the page was opened in a 一起看 room: then the element has no source yet,
 * is marked ROOM_START_WAITING, and loads the rendition 自动 plays there from where the room is
 * (a media fragment: ./watch/room-start.ts) — one load to the first synced frame (decision 0100).
 */
function nativeEngine(video: HTMLVideoElement, master: string, choice: QualityChoice, events: EngineEvents, resume: ResumePoint | null): StreamEngine {
  let levels: Level[] = [];
  let destroyed = false;
  let waitingForRoom = !resume && hasNoSource(video);
  const report = () => events.onHeight(nearestHeight(levels, video.videoHeight));
  const target = (c: QualityChoice) => nativeLevel(levels, c)?.url ?? master;
  const apply = (c: QualityChoice) => {
    const url = target(c);
    if (waitingForRoom || sitePath(new URL(video.currentSrc || master, location.href)) === sitePath(new URL(url, location.href))) return;
    switchSource(video, url);
  };
  /** Waits no more (the first load, a fallback to another engine, the end). */
  const stopWaiting = () => {
    waitingForRoom = false;
    video.removeAttribute(ROOM_START_WAITING);
  };
  video.addEventListener("resize", report);
  // Entering or leaving a 一起看 room changes what automatic plays.
  const roomChanged = () => levels.length > 0 && apply(choice);
  document.addEventListener(ROOM_ROLE, roomChanged);
  // Another line from a position: the media fragment (#t=) lets the browser's player start loading
  // there, instead of loading the first segment, then seeking (docs/decisions/0101-native-line-failover.md).
  if (resume) loadAt(video, fromTime(master, resume.time), resume);
  events.onAttached();
  const ladder = fetchLevels(master).then((l) => {
    if (destroyed) return;
    levels = l;
    events.onLevels(levels);
    if (nativeLevel(levels, choice)) apply(choice);
    report();
  });
  ladder.catch((error: unknown) => {
    // The player falls back to another engine, which starts the stream itself.
    stopWaiting();
    events.onFatal(String(error));
  });
  if (waitingForRoom) {
    video.setAttribute(ROOM_START_WAITING, "");
    // The first load, once the room has said where and the ladder is known.
    void Promise.all([import("./watch/room-start").then((m) => m.roomStart(video, inRoom)), ladder]).then(([at]) => {
      if (destroyed || !waitingForRoom) return;
      stopWaiting();
      loadAt(video, fromTime(target(choice), at.time), at);
      // A paused room: not the element's autoplay either.
      if (!at.play) video.pause();
    }, stopWaiting);
  }
  return {
    kind: "native",
    setQuality: (c) => {
      choice = c;
      apply(c);
    },
    destroy: () => {
      destroyed = true;
      // The next engine on this element (another line) loads it itself: the room's sync must not wait for this one.
      stopWaiting();
      video.removeEventListener("resize", report);
      document.removeEventListener(ROOM_ROLE, roomChanged);
    },
  };
}

/**
 * hls.js over Media Source Extensions: takes over the page's early start when there is one for
 * this element and stream (hls-playback.ts), else starts hls.js itself.
 */
function hlsjsEngine(video: HTMLVideoElement, master: string, choice: QualityChoice, events: EngineEvents, resume: ResumePoint | null): StreamEngine {
  let playback: HlsPlayback | null = null;
  let destroyed = false;
  const take = (p: HlsPlayback) => {
    playback = p;
    p.bind(events);
  };
  // hls.js's side of the player is its own chunk (the page's early start has it already): the
  // browser's own HLS never loads it.
  void import("./hls-playback").then(({ takeEarlyHls, startHls }) => {
    if (destroyed) return;
    const early = takeEarlyHls(video, master);
    if (early) {
      take(early);
      if (choice !== "auto") early.setQuality(choice);
      return;
    }
    void loadHls().then((Hls) => {
      if (destroyed) return;
      if (!Hls.isSupported()) return events.onFatal("hls.js is not supported here");
      take(startHls(Hls, video, master, choice, resume ? resume.time : -1));
      // At once (hls.js has given the element its MediaSource): it waits to play while the stream loads.
      if (resume?.play) video.play().catch(() => {});
    });
  });
  return {
    kind: "hlsjs",
    setQuality: (c) => {
      choice = c;
      playback?.setQuality(c);
    },
    destroy: () => {
      destroyed = true;
      playback?.destroy();
      playback = null;
    },
  };
}

/** Starts the stream of `master` on `video` with the given engine (`resume`: a 线路 switch, from that point). */
export function startEngine(
  kind: EngineKind,
  video: HTMLVideoElement,
  master: string,
  choice: QualityChoice,
  events: EngineEvents,
  resume: ResumePoint | null = null,
): StreamEngine {
  if (kind === "native") return nativeEngine(video, master, choice, events, resume);
  if (kind === "hlsjs") return hlsjsEngine(video, master, choice, events, resume);
  events.onAttached();
  return { kind, setQuality: () => {}, destroy: () => {} };
}
