/**
 * Keeps the page's player in step with a 一起看 room, whichever engine plays (hls.js or native
 * HLS: both drive the one <video class="player-video">, found again at each step because an
 * episode change mounts a new one). The room's state is applied (play or pause, rate, position on
 * the server clock); every SYNC_EVERY_MS the drift is measured and corrected by a short rate
 * change when small, a seek when large (shared/watch/protocol.ts correctionFor). The viewer's own
 * play, pause, seek and rate changes become controls; what this module did itself, what the
 * browser does on its own (buffering, the end of the video, a hidden page) and anything before
 * the first alignment (or since the media was loaded afresh) send nothing — a stalled or failing
 * member never pauses or moves the room. The controls this member sent and the room has not answered
 * yet are the room's state here, on top of the room's last word: a step before the answer (a round
 * trip on a slow link outlasts SYNC_EVERY_MS) would otherwise take the viewer's own seek back, and
 * the late answer to a play would start a video the viewer has paused since.
 */
import { applyControl, correctionFor, nextSeekLatency, positionAt, ROOM_RATES, seekTarget, type Control, type RoomState } from "../../watch/protocol";
import type { ROOM_START, ROOM_START_WAITING, RoomStart } from "./in-room";

/** The player's marks (in-room.ts): the same literals, checked by their types — a value import would make in-room.ts a chunk of its own. */
const ROOM_START_EVENT: typeof ROOM_START = "roomstart";
const WAITING_ATTRIBUTE: typeof ROOM_START_WAITING = "data-room-start";

export const SYNC_EVERY_MS = 500;
/** A seek that is not this module's and lands further than this (s) from the room is the viewer's. */
const USER_SEEK = 0.5;
/** While paused, a gap above this (s) is closed by a seek. */
const PAUSED_TOLERANCE = 0.25;
/**
 * How far ahead of the room (s) a page that waited for its room loads while the room plays, before
 * this member's seeks have been measured. Chromium's own HLS reads the rendition's playlist, its
 * first two segments and then the one at the position: 3.3 s on slow 4G in the bench, where a
 * lead of 1.5 s landed 1.8 s behind and took a second seek. (Within DRIFT_SEEK either way, the
 * rate closes the rest; a fast link lands ahead and seeks back once, which costs it little.)
 */
const FIRST_LOAD_LEAD = 3;

const videoOf = (): HTMLVideoElement | null => document.querySelector<HTMLVideoElement>("video.player-video");

/** Whether `video` holds media at `time` (s). */
function holds(video: HTMLVideoElement, time: number): boolean {
  const ranges = video.buffered;
  for (let i = 0; i < ranges.length; i++) if (time >= ranges.start(i) && time <= ranges.end(i) - 0.5) return true;
  return false;
}

/**
 * What a state from the room is: the answer to this member's oldest unanswered control (`mine`),
 * another member's or the room's (`other`), or the room as a (re)joined member first hears it
 * (`fresh`: what was sent before is answered there or lost with the old socket).
 */
export type RoomAnswer = "mine" | "other" | "fresh";

export interface SyncHooks {
  /** The server's clock now (ms). */
  serverNow(): number;
  send(control: Control): void;
  /** The browser refused to start playback without a gesture: the page offers a button. */
  blocked(blocked: boolean): void;
  /** Whether the player is in step with the room (after the first alignment of each state). */
  synced(synced: boolean): void;
  /**
   * The episode the page shows. While it is not the room's (a navigation to the room's episode,
   * or the viewer's pick before the room has it), the page's <video> is not the room's: the sync
   * lets go of it, so the old episode is neither aligned nor heard (its pause as the page changes
   * is not the viewer's), and takes the new page's <video> afresh.
   */
  pageEpisode(): number;
}

export class WatchSync {
  /** The room's state as it last said it. */
  private confirmed: RoomState | null = null;
  /** This member's controls the room has not answered yet, in order, with when each was sent (server clock, ms). */
  private pending: Array<{ control: Control; at: number }> = [];
  private timer: ReturnType<typeof setInterval>;
  /** The rate and the seek target this module set last: their events are not the viewer's. */
  private ownRate: number | null = null;
  private ownSeek: number | null = null;
  /** Play/pause this module asked for, until the element's event arrives. */
  private ownPlaying: boolean | null = null;
  /** Aligned once with the room since this <video> came: the viewer's actions count from then on (before, the player's own start — autoplay, a resumed position — is not the viewer's). */
  private alignedNow = false;
  private element: HTMLVideoElement | null = null;
  /** How long this member's seeks into media it did not hold took (s): a seek while the room plays aims that far ahead. */
  private seekLatency = 0;
  /** A rate correction is under way: it goes on until the gap is all but closed (DRIFT_SETTLED), not only under the tolerance. */
  private correcting = false;
  /** When this module's seek into media the member did not hold began (performance.now()), until its `seeked`. */
  private fetchSeekSince: number | null = null;
  /**
   * A seek that is not this module's began (its `seeking`) and has not ended (its `seeked`). The
   * element stops seeking a task before it fires `seeked`: a step in between would take it for a
   * gap, seek back to the room, and the viewer's seek would end as this module's, never sent.
   */
  private viewerSeeking = false;

  /** The state the player follows: the room's last word, with this member's unanswered controls on top. */
  private get state(): RoomState | null {
    return this.confirmed && this.pending.reduce((ahead, { control, at }) => applyControl(ahead, control, at), this.confirmed);
  }

  private get aligned(): boolean {
    return this.alignedNow;
  }

  private set aligned(value: boolean) {
    if (value !== this.alignedNow) this.hooks.synced(value);
    this.alignedNow = value;
  }
  private readonly listeners: Array<[keyof HTMLMediaElementEventMap, () => void]> = [
    ["play", () => this.onPlayPause(true)],
    ["pause", () => this.onPlayPause(false)],
    ["seeking", () => this.onSeeking()],
    ["seeked", () => this.onSeeked()],
    ["ratechange", () => this.onRate()],
    ["loadedmetadata", () => this.step()],
    // The media is loaded afresh (a 线路 or engine fallback, 重试 after a failure, a switch of
    // rendition): what the player does while it comes back (its resume seek, its start) is not the
    // viewer's; it aligns anew. A seek of this module under way is moot (its `seeked` never comes).
    [
      "emptied",
      () => {
        this.aligned = false;
        this.viewerSeeking = false;
        this.ownSeek = this.fetchSeekSince = null;
      },
    ],
  ];

  constructor(private readonly hooks: SyncHooks) {
    this.timer = setInterval(() => this.step(), SYNC_EVERY_MS);
  }

  /** The room's position now (s). */
  roomPosition(): number | null {
    return this.state ? positionAt(this.state, this.hooks.serverNow()) : null;
  }

  /** A new state from the room (the episode already on the page or being navigated to). */
  apply(state: RoomState, answer: RoomAnswer = "other"): void {
    this.confirmed = state;
    if (answer === "fresh") this.pending = [];
    else if (answer === "mine") this.pending.shift();
    this.step();
  }

  /** The room refused this member's control (an error instead of a state): back to the room's own state. */
  refused(): void {
    this.pending = [];
    this.step();
  }

  /** Sends the viewer's control and follows it at once, until the room answers. */
  private control(control: Control): void {
    this.hooks.send(control);
    if (this.confirmed) this.pending.push({ control, at: this.hooks.serverNow() });
  }

  /** The page now shows another episode: aligns at once instead of at the next tick. */
  pageChanged(): void {
    this.step();
  }

  /** A gesture's retry of a refused play(). */
  playNow(): void {
    const video = videoOf();
    if (video && this.state?.playing) void this.play(video);
  }

  private bind(video: HTMLVideoElement | null): void {
    if (video === this.element) return;
    for (const [type, listener] of this.listeners) this.element?.removeEventListener(type, listener);
    this.element = video;
    this.aligned = false;
    this.ownRate = this.ownSeek = this.ownPlaying = this.fetchSeekSince = null;
    this.correcting = this.viewerSeeking = false;
    for (const [type, listener] of this.listeners) video?.addEventListener(type, listener);
  }

  private play(video: HTMLVideoElement): Promise<void> {
    this.ownPlaying = true;
    return video.play().then(
      () => this.hooks.blocked(false),
      (error: unknown) => {
        this.ownPlaying = null;
        if ((error as DOMException)?.name === "NotAllowedError") this.hooks.blocked(true);
      },
    );
  }

  private setRate(video: HTMLVideoElement, rate: number): void {
    if (Math.abs(video.playbackRate - rate) < 0.0005) return;
    this.ownRate = rate;
    video.playbackRate = rate;
  }

  private seek(video: HTMLVideoElement, to: number): void {
    this.ownSeek = to;
    video.currentTime = to;
  }

  /** One step of alignment: play state, rate, position. */
  private step(): void {
    const state = this.state;
    if (state && state.episode !== this.hooks.pageEpisode()) return this.bind(null);
    const video = videoOf();
    this.bind(video);
    if (!video || !state) return;
    // A page opened in the room waits with nothing loaded: it loads where the room is (again at each step until it has).
    if (video.hasAttribute(WAITING_ATTRIBUTE)) return this.startAt(state);
    if (video.readyState < HTMLMediaElement.HAVE_METADATA) return;
    // The viewer's seek is the room's news once it has ended (onSeeked), not a gap to close.
    if (this.viewerSeeking) return;
    const room = Math.min(positionAt(state, this.hooks.serverNow()), Number.isFinite(video.duration) ? video.duration : Infinity);
    if (!state.playing) {
      if (!video.paused) {
        this.ownPlaying = false;
        video.pause();
      }
      this.setRate(video, state.rate);
      if (!video.seeking && Math.abs(video.currentTime - room) > PAUSED_TOLERANCE) this.seek(video, room);
      else if (!video.seeking) this.aligned = true;
      return;
    }
    if (video.paused && !video.ended && this.ownPlaying !== true) void this.play(video);
    // Buffering or seeking: wait; the member catches up once it plays again. At the end there is
    // no media ahead (readyState may stay below HAVE_FUTURE_DATA): the room's seek back must still land.
    if (video.seeking || (video.readyState < HTMLMediaElement.HAVE_FUTURE_DATA && !video.ended)) return;
    const correction = correctionFor(video.currentTime, room, state.rate, this.correcting);
    this.correcting = correction.kind === "rate";
    if (correction.kind === "seek") {
      // Aimed ahead by the time a fetch takes, so the seek does not land behind the room again.
      const held = holds(video, correction.to);
      this.fetchSeekSince = held ? null : performance.now();
      this.seek(video, seekTarget(correction.to, state.rate, this.seekLatency, held, video.duration));
    } else this.aligned = true;
    this.setRate(video, correction.rate);
  }

  /** Tells the player of a page waiting for its room where to load: the room's position, ahead by a load's time while it plays. */
  private startAt(state: RoomState): void {
    const room = positionAt(state, this.hooks.serverNow());
    const time = state.playing ? seekTarget(room, state.rate, this.seekLatency > 0 ? this.seekLatency : FIRST_LOAD_LEAD, false, Infinity) : room;
    document.dispatchEvent(new CustomEvent<RoomStart>(ROOM_START_EVENT, { detail: { time, play: state.playing } }));
  }

  private onPlayPause(playing: boolean): void {
    const video = this.element;
    if (!video || !this.state) return;
    if (this.ownPlaying === playing) {
      this.ownPlaying = null;
      return;
    }
    // Not the viewer: the end of the video, a page going to the background, before alignment.
    if (!this.aligned || video.ended || document.hidden || this.state.playing === playing) return;
    this.control({ type: playing ? "play" : "pause", position: video.currentTime });
  }

  private onSeeking(): void {
    const video = this.element;
    if (video) this.viewerSeeking = this.ownSeek === null || Math.abs(video.currentTime - this.ownSeek) >= 0.5;
  }

  private onSeeked(): void {
    this.viewerSeeking = false;
    const video = this.element;
    if (!video || !this.state) return;
    if (this.ownSeek !== null && Math.abs(video.currentTime - this.ownSeek) < 0.5) {
      this.ownSeek = null;
      if (this.fetchSeekSince !== null) this.seekLatency = nextSeekLatency(this.seekLatency, (performance.now() - this.fetchSeekSince) / 1000);
      this.fetchSeekSince = null;
      return;
    }
    const room = this.roomPosition() ?? 0;
    if (!this.aligned || Math.abs(video.currentTime - room) < USER_SEEK) return;
    this.control({ type: "seek", position: video.currentTime });
  }

  private onRate(): void {
    const video = this.element;
    if (!video || !this.state) return;
    if (this.ownRate !== null && Math.abs(video.playbackRate - this.ownRate) < 0.0005) {
      this.ownRate = null;
      return;
    }
    const rate = video.playbackRate;
    if (this.aligned && rate !== this.state.rate && (ROOM_RATES as readonly number[]).includes(rate)) this.control({ type: "rate", rate });
  }

  stop(): void {
    clearInterval(this.timer);
    this.bind(null);
  }
}
