/**
 * The 弹幕 stage: the comments of one video shown over the player as their time in the video
 * comes. Scrolling comments move with the Web Animations API (transform only: no layout per
 * frame) in lanes that never overlap; top and bottom comments stay 4 s. Everything follows the
 * video: paused with it, rate-matched, cleared on a seek. With reduced motion, scrolling
 * comments are shown like top ones (static).
 */
import { containsBlockedWord, type DanmakuComment } from "../../danmaku/model";
import { pickLane, type LaneOccupant } from "./lanes";

/** Time a scrolling comment takes to cross the stage (ms of video time). */
export const SCROLL_MS = 8000;
/** Time a top or bottom comment stays (ms). */
export const FIXED_MS = 4000;
/** A seek of more than this (s) clears the stage; smaller steps are normal playback. */
const JUMP_S = 1.5;

export interface StageOptions {
  laneHeight: number;
  /** Fraction of the stage height comments may use (1/4, 1/2, full). */
  area: number;
  /** Most comments on screen. */
  limit: number;
  blocked: readonly string[];
  reducedMotion: boolean;
}

interface Shown {
  el: HTMLElement;
  animation: Animation;
  comment: DanmakuComment;
}

export class DanmakuStage {
  private comments: DanmakuComment[] = [];
  private readonly ids = new Set<number>();
  private shown: Shown[] = [];
  /** Ids on screen: a live comment shown at once is not shown again when playback reaches its time. */
  private readonly onScreenIds = new Set<number>();
  private scrollLanes: Array<(LaneOccupant & { animation: Animation }) | null> = [];
  private topLanes: Array<Animation | null> = [];
  private bottomLanes: Array<Animation | null> = [];
  private lastTime = 0;
  private frame = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly video: HTMLVideoElement,
    private options: StageOptions,
  ) {
    this.lastTime = video.currentTime;
    for (const type of ["play", "pause", "seeking", "ratechange", "waiting", "playing"] as const) video.addEventListener(type, this.sync);
    this.sync();
  }

  setOptions(options: StageOptions): void {
    this.options = options;
    this.clear();
  }

  /** Adds stored comments (duplicates by id are ignored). */
  add(comments: readonly DanmakuComment[]): void {
    for (const c of comments) {
      if (this.ids.has(c.id)) continue;
      this.ids.add(c.id);
      this.comments.push(c);
    }
    this.comments.sort((a, b) => a.time - b.time || a.id - b.id);
  }

  /** A comment that just arrived live: stored and shown now. Returns false when already known. */
  live(comment: DanmakuComment, own = false): boolean {
    if (this.ids.has(comment.id)) return false;
    this.add([comment]);
    this.show(comment, own);
    return true;
  }

  /** Number of comments on screen. */
  get onScreen(): number {
    return this.shown.length;
  }

  destroy(): void {
    cancelAnimationFrame(this.frame);
    for (const type of ["play", "pause", "seeking", "ratechange", "waiting", "playing"] as const) this.video.removeEventListener(type, this.sync);
    this.clear();
  }

  clear(): void {
    for (const s of this.shown) {
      s.animation.cancel(); // no finish event for a comment already gone
      s.el.remove();
    }
    this.shown = [];
    this.onScreenIds.clear();
    this.scrollLanes = [];
    this.topLanes = [];
    this.bottomLanes = [];
    this.lastTime = this.video.currentTime;
  }

  private readonly sync = (event?: Event) => {
    if (event?.type === "seeking") this.clear();
    const running = !this.video.paused && this.video.readyState > 2;
    for (const s of this.shown) {
      s.animation.playbackRate = this.video.playbackRate;
      if (running) s.animation.play();
      else s.animation.pause();
    }
    cancelAnimationFrame(this.frame);
    if (!this.video.paused) this.frame = requestAnimationFrame(this.tick);
  };

  private readonly tick = () => {
    const now = this.video.currentTime;
    if (now < this.lastTime || now - this.lastTime > JUMP_S) {
      this.clear();
    } else if (now > this.lastTime) {
      for (const c of this.due(this.lastTime, now)) this.show(c, false);
      this.lastTime = now;
    }
    if (!this.video.paused) this.frame = requestAnimationFrame(this.tick);
  };

  /** Comments with from < time ≤ to. */
  private due(from: number, to: number): DanmakuComment[] {
    let lo = 0;
    let hi = this.comments.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.comments[mid].time <= from) lo = mid + 1;
      else hi = mid;
    }
    const out: DanmakuComment[] = [];
    for (let i = lo; i < this.comments.length && this.comments[i].time <= to; i++) out.push(this.comments[i]);
    return out;
  }

  private show(comment: DanmakuComment, own: boolean): void {
    const { laneHeight, area, limit, blocked, reducedMotion } = this.options;
    if (this.onScreenIds.has(comment.id) || this.shown.length >= limit || containsBlockedWord(comment.text, blocked)) return;
    const width = this.root.clientWidth;
    const lanes = Math.max(1, Math.floor((this.root.clientHeight * area) / laneHeight));
    const el = document.createElement("span");
    el.className = own ? "danmaku-item danmaku-own" : "danmaku-item";
    el.textContent = comment.text;
    el.style.color = comment.color;
    el.dataset.id = String(comment.id);
    const mode = comment.mode === "scroll" && reducedMotion ? "top" : comment.mode;
    let animation: Animation;
    if (mode === "scroll") {
      el.style.left = "100%";
      this.root.appendChild(el);
      const w = el.offsetWidth;
      const occupants = Array.from({ length: lanes }, (_, i) => {
        const last = this.scrollLanes[i];
        return last ? { width: last.width, elapsed: Number(last.animation.currentTime ?? 0) } : null;
      });
      const lane = own ? Math.max(0, pickLane(occupants, w, width, SCROLL_MS)) : pickLane(occupants, w, width, SCROLL_MS);
      if (lane < 0) {
        el.remove();
        return;
      }
      el.style.top = `${lane * laneHeight}px`;
      animation = el.animate([{ transform: "translateX(0)" }, { transform: `translateX(${-(width + w)}px)` }], { duration: SCROLL_MS, easing: "linear" });
      this.scrollLanes[lane] = { width: w, elapsed: 0, animation };
    } else {
      const list = mode === "top" ? this.topLanes : this.bottomLanes;
      let lane = Array.from({ length: lanes }, (_, i) => list[i] ?? null).findIndex((a) => a === null || a.playState === "finished");
      if (lane < 0) {
        if (!own) return;
        lane = 0;
      }
      el.classList.add("danmaku-fixed");
      el.style[mode === "top" ? "top" : "bottom"] = `${lane * laneHeight}px`;
      this.root.appendChild(el);
      animation = el.animate([{ opacity: 1 }, { opacity: 1 }], { duration: FIXED_MS });
      list[lane] = animation;
    }
    animation.playbackRate = this.video.playbackRate;
    if (this.video.paused && !own) animation.pause();
    const entry: Shown = { el, animation, comment };
    this.shown.push(entry);
    this.onScreenIds.add(comment.id);
    animation.onfinish = () => {
      el.remove();
      this.onScreenIds.delete(comment.id);
      this.shown = this.shown.filter((s) => s !== entry);
    };
  }
}
