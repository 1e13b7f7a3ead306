import type HlsType from "hls.js";
import type { ErrorData, HlsConfig, Level as HlsLevel, LevelSwitchedData } from "hls.js";
import type { QualityChoice } from "../library";
import { playerConfig } from "../playback/config";
import { browserConnection } from "./page-engine";
import { levelForChoice, sortedLevels, type Level } from "../playback/quality";

/**
 * One hls.js playback of a title's stream on a <video>, whoever started it: the page's early
 * start (hls-start-boot.ts, before the page's own JavaScript) or the player's hls.js engine
 * (stream-engine.ts), which takes over an early one (`takeEarlyHls`) instead of starting anew.
 * What happened before the player took over (renditions read, height, attached, a fatal error)
 * is replayed to it when it binds (docs/decisions/0058-early-hls-start.md).
 */

export interface EngineEvents {
  /** The renditions (lowest first) once the master playlist is read. */
  onLevels: (levels: Level[]) => void;
  /** The height now playing (null while unknown). */
  onHeight: (height: number | null) => void;
  /** The stream failed for good: the player falls back to the progressive file. */
  onFatal: (reason: string) => void;
  /** The element is bound to the stream: play() now plays it (hls.js attaches asynchronously). */
  onAttached: () => void;
  /** A request of the stream failed and is being retried (the 线路 failover weighs it: shared/playback/lines.ts). */
  onTrouble?: () => void;
}

/** The browser's own estimate of the link, in bits/s. */
function bandwidthEstimate(): number | null {
  const downlink = browserConnection()?.downlink;
  return typeof downlink === "number" && downlink > 0 ? downlink * 1_000_000 : null;
}

/** Seconds of media buffered ahead of the playhead. */
export function bufferedAhead(video: HTMLVideoElement): number {
  const t = video.currentTime;
  for (let i = 0; i < video.buffered.length; i++) {
    if (video.buffered.start(i) <= t + 0.1 && t < video.buffered.end(i)) return video.buffered.end(i) - t;
  }
  return 0;
}

export class HlsPlayback {
  levels: Level[] = [];
  height: number | null = null;
  attached = false;
  fatal: string | null = null;
  /** Media segments appended so far. */
  segments = 0;
  #events: EngineEvents | null = null;
  #destroyed = false;

  constructor(
    readonly hls: HlsType,
    readonly video: HTMLVideoElement,
    readonly master: string,
  ) {}

  /** Sends this playback's events to `events` from now on, after replaying what already happened. */
  bind(events: EngineEvents): void {
    this.#events = events;
    if (this.levels.length > 0) events.onLevels(this.levels);
    if (this.height !== null) events.onHeight(this.height);
    if (this.attached) events.onAttached();
    if (this.fatal !== null) events.onFatal(this.fatal);
  }

  /** Plays `choice` (automatic: hls.js's own choice) from the next segment on. */
  setQuality(choice: QualityChoice): void {
    this.hls.currentLevel = this.#indexOf(levelForChoice(this.levels, choice));
  }

  get destroyed(): boolean {
    return this.#destroyed;
  }

  destroy(): void {
    this.#destroyed = true;
    this.#events = null;
    this.hls.destroy();
  }

  /** hls.js's index of a level (-1: automatic). */
  #indexOf(level: Level | null): number {
    return level ? this.hls.levels.findIndex((l) => l.height === level.height && l.bitrate === level.bandwidth) : -1;
  }

  /** @internal startHls's event wiring */
  setLevels(choice: QualityChoice): void {
    const h = this.hls;
    this.levels = sortedLevels(h.levels.map((l: HlsLevel) => ({ height: l.height, bandwidth: l.bitrate, url: l.url[0] ?? "" })));
    const chosen = levelForChoice(this.levels, choice);
    if (chosen) {
      // A remembered 清晰度: start on it and keep it (loadLevel makes the choice manual).
      h.startLevel = this.#indexOf(chosen);
      h.loadLevel = this.#indexOf(chosen);
    } else {
      // 自动 starts on the lowest rung, whose playlist the page preloads (shared/playback/stream-start.ts):
      // its first segment is the smallest, and hls.js ramps up from the segments it measures.
      h.startLevel = this.#indexOf(this.levels[0] ?? null);
    }
    this.#events?.onLevels(this.levels);
  }

  /** @internal */
  report(change: { height?: number | null; attached?: true; fatal?: string; trouble?: true }): void {
    if (change.trouble) this.#events?.onTrouble?.();
    if (change.height !== undefined) {
      this.height = change.height;
      this.#events?.onHeight(change.height);
    }
    if (change.attached) {
      this.attached = true;
      this.#events?.onAttached();
    }
    if (change.fatal !== undefined) {
      this.fatal = change.fatal;
      this.#events?.onFatal(change.fatal);
    }
  }
}

/**
 * Starts hls.js on `video` with the player's configuration (playerConfig.hls): a short forward
 * buffer until the video plays, then a long one; 自动 on the lowest rung, a remembered 清晰度 on
 * its rendition; one recovery from a media error, then a fatal error.
 */
export function startHls(Hls: typeof HlsType, video: HTMLVideoElement, master: string, choice: QualityChoice, startPosition = -1): HlsPlayback {
  const cfg = playerConfig.hls;
  const config: Partial<HlsConfig> = {
    enableWorker: false, // fMP4 needs no transmuxing; the CSP allows no blob: workers
    maxBufferLength: cfg.startBufferSeconds,
    maxMaxBufferLength: cfg.maxBufferSeconds,
    backBufferLength: cfg.backBufferSeconds,
    abrEwmaDefaultEstimate: bandwidthEstimate() ?? cfg.defaultEstimateBps,
    capLevelToPlayerSize: true,
    startFragPrefetch: true,
    startPosition, // -1: from the start; a 线路 switch goes on where the last line stopped
  };
  const h = new Hls(config);
  const playback = new HlsPlayback(h, video, master);
  let recoveredMedia = false;
  h.on(Hls.Events.MANIFEST_PARSED, () => playback.setLevels(choice));
  h.on(Hls.Events.LEVEL_SWITCHED, (_e, data: LevelSwitchedData) => playback.report({ height: h.levels[data.level]?.height ?? null }));
  h.on(Hls.Events.FRAG_BUFFERED, () => playback.segments++);
  h.on(Hls.Events.ERROR, (_e, data: ErrorData) => {
    if (!data.fatal) {
      if (data.type === Hls.ErrorTypes.NETWORK_ERROR) playback.report({ trouble: true });
      return;
    }
    if (data.type === Hls.ErrorTypes.MEDIA_ERROR && !recoveredMedia) {
      recoveredMedia = true;
      h.recoverMediaError();
      return;
    }
    playback.report({ fatal: `${data.type}: ${data.details}` });
  });
  h.on(Hls.Events.MEDIA_ATTACHED, () => playback.report({ attached: true }));
  // Once playback runs, a long forward buffer rides out slow patches of a phone link.
  video.addEventListener(
    "playing",
    () => {
      if (!playback.destroyed) h.config.maxBufferLength = cfg.playingBufferSeconds;
    },
    { once: true },
  );
  h.loadSource(master);
  h.attachMedia(video);
  return playback;
}

let early: HlsPlayback | null = null;

/** Records the page's early start (hls-start-boot.ts) for the player to take over. */
export function setEarlyHls(playback: HlsPlayback): void {
  early = playback;
}

/**
 * The early start of `master` on `video`, handed over once (null when there is none). An early
 * start of another element or stream — the page moved on to another episode before the player
 * started — is stopped, so it does not go on downloading beside the player's own.
 */
export function takeEarlyHls(video: HTMLVideoElement, master: string): HlsPlayback | null {
  const found = early;
  early = null;
  if (!found || found.destroyed) return null;
  if (found.video === video && found.master === master) return found;
  found.destroy();
  return null;
}
