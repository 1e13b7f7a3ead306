import type HlsType from "hls.js";
import type { ErrorData, HlsConfig, Level as HlsLevel, LevelSwitchedData } from "hls.js";
import type { QualityChoice } from "../library";
import { playerConfig } from "./config";
import { loadHls, type EngineKind } from "./engine-choice";
import { levelForChoice, nearestHeight, startLevelIndex, type Level } from "./quality";

/** The engines that bind a title's stream to the <video> element (engine-choice.ts decides which one). */

export interface EngineEvents {
  /** The renditions (lowest first) once the master playlist is read. */
  onLevels: (levels: Level[]) => void;
  /** The height now playing (null while unknown). */
  onHeight: (height: number | null) => void;
  /** The stream failed for good: the player falls back to the progressive file. */
  onFatal: (reason: string) => void;
  /** The element is bound to the stream: play() now plays it (hls.js attaches asynchronously). */
  onAttached: () => void;
}

export interface StreamEngine {
  readonly kind: EngineKind;
  setQuality: (choice: QualityChoice) => void;
  /** Called once playback has started: lengthen the forward buffer. */
  playing: () => void;
  destroy: () => void;
}

/** The browser's own estimate of the link (Chromium: navigator.connection.downlink, Mbit/s), in bits/s. */
function bandwidthEstimate(): number | null {
  const downlink = (navigator as Navigator & { connection?: { downlink?: number } }).connection?.downlink;
  return typeof downlink === "number" && downlink > 0 ? downlink * 1_000_000 : null;
}

function sortedLevels(levels: Level[]): Level[] {
  return [...levels].sort((a, b) => a.height - b.height || a.bandwidth - b.bandwidth);
}

/** Plays from `time` once the new source has metadata (a source switch keeps the position). */
function resumeAt(video: HTMLVideoElement, time: number, play: boolean): void {
  const go = () => {
    if (time > 0) video.currentTime = time;
    if (play) video.play().catch(() => {});
  };
  video.addEventListener("loadedmetadata", go, { once: true });
}

/** Swaps the element's source and keeps the position and play state. */
export function switchSource(video: HTMLVideoElement, url: string): void {
  const time = video.currentTime;
  const play = !video.paused;
  video.src = url;
  video.load();
  resumeAt(video, time, play);
}

async function fetchLevels(master: string): Promise<Level[]> {
  // The playlist parser is not needed before the page is interactive: it comes with the playlist.
  const [res, { parseMasterPlaylist }] = await Promise.all([fetch(master), import("../stream/hls")]);
  if (!res.ok) throw new Error(`master playlist ${res.status}`);
  const base = new URL(master, location.href);
  return sortedLevels(
    parseMasterPlaylist(await res.text()).variants.map((v) => ({ height: v.height, bandwidth: v.bandwidth, url: new URL(v.uri, base).pathname })),
  );
}

/** Native HLS: the element already has the master playlist as its <source>. */
function nativeEngine(video: HTMLVideoElement, master: string, choice: QualityChoice, events: EngineEvents): StreamEngine {
  let levels: Level[] = [];
  let destroyed = false;
  const report = () => events.onHeight(nearestHeight(levels, video.videoHeight));
  const apply = (c: QualityChoice) => {
    const level = levelForChoice(levels, c);
    const target = level ? level.url : master;
    if (new URL(video.currentSrc || master, location.href).pathname === target) return;
    switchSource(video, target);
  };
  video.addEventListener("resize", report);
  events.onAttached();
  fetchLevels(master)
    .then((l) => {
      if (destroyed) return;
      levels = l;
      events.onLevels(levels);
      if (choice !== "auto") apply(choice);
      report();
    })
    .catch((error: unknown) => events.onFatal(String(error)));
  return {
    kind: "native",
    setQuality: (c) => {
      choice = c;
      apply(c);
    },
    playing: () => {},
    destroy: () => {
      destroyed = true;
      video.removeEventListener("resize", report);
    },
  };
}

/** hls.js over Media Source Extensions. */
function hlsjsEngine(video: HTMLVideoElement, master: string, choice: QualityChoice, events: EngineEvents): StreamEngine {
  let hls: HlsType | null = null;
  let destroyed = false;
  let levels: Level[] = [];
  let recoveredMedia = false;
  const indexOf = (level: Level | null) => (level ? (hls?.levels.findIndex((l) => l.height === level.height && l.bitrate === level.bandwidth) ?? -1) : -1);
  const apply = (c: QualityChoice) => {
    if (!hls) return;
    const index = indexOf(levelForChoice(levels, c));
    hls.currentLevel = index; // -1: automatic
  };
  const cfg = playerConfig.hls;
  void loadHls().then((Hls) => {
    if (destroyed) return;
    if (!Hls.isSupported()) return events.onFatal("hls.js is not supported here");
    const estimate = bandwidthEstimate();
    const config: Partial<HlsConfig> = {
      enableWorker: false, // fMP4 needs no transmuxing; the CSP allows no blob: workers
      maxBufferLength: cfg.startBufferSeconds,
      maxMaxBufferLength: cfg.maxBufferSeconds,
      backBufferLength: cfg.backBufferSeconds,
      abrEwmaDefaultEstimate: estimate ?? cfg.defaultEstimateBps,
      capLevelToPlayerSize: true,
      startFragPrefetch: true,
    };
    const h = new Hls(config);
    hls = h;
    h.on(Hls.Events.MANIFEST_PARSED, () => {
      levels = sortedLevels(h.levels.map((l: HlsLevel) => ({ height: l.height, bandwidth: l.bitrate, url: l.url[0] ?? "" })));
      events.onLevels(levels);
      const chosen = levelForChoice(levels, choice);
      if (chosen) {
        // A remembered 清晰度: start on it and keep it (loadLevel makes the choice manual).
        h.startLevel = indexOf(chosen);
        h.loadLevel = indexOf(chosen);
      } else {
        const sorted = h.levels.map((l, i) => ({ bandwidth: l.bitrate, i })).sort((a, b) => a.bandwidth - b.bandwidth);
        h.startLevel = sorted[startLevelIndex(sorted, estimate ?? cfg.defaultEstimateBps, cfg.startBandwidthShare)].i;
      }
    });
    h.on(Hls.Events.LEVEL_SWITCHED, (_e, data: LevelSwitchedData) => events.onHeight(h.levels[data.level]?.height ?? null));
    h.on(Hls.Events.ERROR, (_e, data: ErrorData) => {
      if (!data.fatal) return;
      if (data.type === Hls.ErrorTypes.MEDIA_ERROR && !recoveredMedia) {
        recoveredMedia = true;
        h.recoverMediaError();
        return;
      }
      events.onFatal(`${data.type}: ${data.details}`);
    });
    h.on(Hls.Events.MEDIA_ATTACHED, () => events.onAttached());
    h.loadSource(master);
    h.attachMedia(video);
  });
  return {
    kind: "hlsjs",
    setQuality: (c) => {
      choice = c;
      apply(c);
    },
    playing: () => {
      if (hls) hls.config.maxBufferLength = cfg.playingBufferSeconds;
    },
    destroy: () => {
      destroyed = true;
      hls?.destroy();
      hls = null;
    },
  };
}

/** Starts the stream of `master` on `video` with the given engine. */
export function startEngine(kind: EngineKind, video: HTMLVideoElement, master: string, choice: QualityChoice, events: EngineEvents): StreamEngine {
  if (kind === "native") return nativeEngine(video, master, choice, events);
  if (kind === "hlsjs") return hlsjsEngine(video, master, choice, events);
  events.onAttached();
  return { kind, setQuality: () => {}, playing: () => {}, destroy: () => {} };
}
