/**
 * The 弹幕 stage: the comments of one video shown over the player as their time in the video
 * comes. Built to cost the main thread next to nothing per frame:
 * - scrolling comments move with one Web Animation each on `transform` only, which the
 *   compositor runs without the main thread; top and bottom comments do not animate at all;
 * - one clock (every CLOCK_MS while the video plays, no per-comment timers) adds the comments
 *   that came due and the live ones that arrived since the last tick — all of a tick in one DOM
 *   insertion — and removes the ones whose time is up, by the video's time (only the viewer's
 *   own comment, or one arriving while paused, is shown at the next frame instead);
 * - widths come from a canvas text measure and the stage size from a ResizeObserver, so adding
 *   a comment never reads layout; removed elements are kept for reuse.
 * Lanes never overlap (lanes.ts). Everything follows the video: paused with it, rate-matched,
 * cleared on a seek. With reduced motion, scrolling comments are shown like top ones (static).
 */
import { containsBlockedWord, isDarkColor, type DanmakuComment, type DanmakuMode } from "../../danmaku/model";
import { pickLane, type LaneOccupant } from "./lanes";

/** Time a scrolling comment takes to cross the stage (ms of video time). */
export const SCROLL_MS = 8000;
/** Time a top or bottom comment stays (ms of video time). */
export const FIXED_MS = 4000;
/** How often the clock looks for due comments while the video plays (ms); comment times have 0.1 s precision. */
export const CLOCK_MS = 100;
/** How far back 举报弹幕's list reaches (seconds of the video before the current time). */
export const RECENT_SECONDS = 20;
/** A seek of more than this (s) clears the stage; smaller steps are normal playback. */
const JUMP_S = 1.5;
/** Room for the text shadow around a measured width (px). */
const SHADOW_PX = 2;
/** Room around a comment that still counts as on it, for a finger (px). */
const HIT_SLOP_PX = 6;
/** Spare elements kept for reuse. */
const POOL_MAX = 200;

export interface StageOptions {
  /** 弹幕 shown at all. */
  on: boolean;
  /** Font size (px); a lane is 1.3 times as high. */
  fontPx: number;
  /** Fraction of the stage height comments may use (1/4, 1/2, full). */
  area: number;
  /** Most comments on screen. */
  limit: number;
  blocked: readonly string[];
  reducedMotion: boolean;
}

interface Shown {
  el: HTMLElement;
  comment: DanmakuComment;
  /** The animation of a scrolling comment (none for fixed ones). */
  animation: Animation | null;
  /** Video time (s) it appeared at and is gone by. */
  start: number;
  end: number;
  /** Whether it is the viewer's own comment, shown while the video was paused (it moves anyway). */
  ownWhilePaused: boolean;
}

interface ScrollLane extends LaneOccupant {
  start: number;
}

export class DanmakuStage {
  private comments: DanmakuComment[] = [];
  private readonly ids = new Set<number>();
  /** Ids a moderator deleted: a late read or backlog that still holds them does not bring them back. */
  private readonly removed = new Set<number>();
  private shown: Shown[] = [];
  /** Ids on screen: a live comment shown at once is not shown again when playback reaches its time. */
  private readonly onScreenIds = new Set<number>();
  private scrollLanes: Array<ScrollLane | null> = [];
  private fixedLanes: Record<"top" | "bottom", Array<Shown | null>> = { top: [], bottom: [] };
  private readonly pool: HTMLElement[] = [];
  /** Live comments waiting for the next frame (flush). */
  private pending: DanmakuComment[] = [];
  private pendingOwn: DanmakuComment[] = [];
  private flushFrame = 0;
  private lastTime = 0;
  private clock: ReturnType<typeof setInterval> | undefined;
  private width = 0;
  private height = 0;
  private readonly resize: ResizeObserver | null;
  private readonly measureContext: CanvasRenderingContext2D | null;
  private fontFamily = "sans-serif";

  constructor(
    private readonly root: HTMLElement,
    private readonly video: HTMLVideoElement,
    private options: StageOptions,
  ) {
    this.lastTime = video.currentTime;
    this.measureContext = document.createElement("canvas").getContext("2d");
    this.readSize();
    this.resize =
      typeof ResizeObserver === "undefined"
        ? null
        : new ResizeObserver((entries) => {
            const box = entries.at(-1)?.contentRect;
            if (!box) return;
            this.width = box.width;
            this.height = box.height;
          });
    this.resize?.observe(root);
    for (const type of VIDEO_EVENTS) video.addEventListener(type, this.sync);
    this.sync();
  }

  setOptions(options: StageOptions): void {
    this.options = options;
    this.clear();
    this.readSize();
  }

  /** Adds stored comments (duplicates by id are ignored). */
  add(comments: readonly DanmakuComment[]): void {
    let added = false;
    for (const c of comments) {
      if (this.ids.has(c.id) || this.removed.has(c.id)) continue;
      this.ids.add(c.id);
      this.comments.push(c);
      added = true;
    }
    if (added) this.comments.sort((a, b) => a.time - b.time || a.id - b.id);
  }

  /**
   * A comment that just arrived live: stored and shown at the next frame, together with the
   * others that arrive before it (one insertion). Returns false when already known.
   */
  live(comment: DanmakuComment, own = false): boolean {
    if (this.ids.has(comment.id) || this.removed.has(comment.id)) return false;
    this.add([comment]);
    (own ? this.pendingOwn : this.pending).push(comment);
    // While the clock runs, others' comments wait for its next tick (one DOM change per tick, with
    // the comments that came due and the ones that left); the viewer's own one shows at once.
    if (this.flushFrame === 0 && (own || this.clock === undefined)) this.flushFrame = requestAnimationFrame(this.flush);
    return true;
  }

  private readonly flush = () => {
    this.flushFrame = 0;
    const own = this.pendingOwn;
    const others = this.pending;
    this.pendingOwn = [];
    this.pending = [];
    this.showAll(own, true);
    this.showAll(others, false);
  };

  /** Deleted comments (弹幕管理): off the screen now, out of the list, not shown again. */
  remove(ids: readonly number[]): void {
    const gone = new Set(ids);
    for (const id of gone) this.removed.add(id);
    this.comments = this.comments.filter((c) => !gone.has(c.id));
    this.pending = this.pending.filter((c) => !gone.has(c.id));
    this.pendingOwn = this.pendingOwn.filter((c) => !gone.has(c.id));
    for (const s of this.shown.filter((x) => gone.has(x.comment.id))) this.removeShown(s);
  }

  /**
   * The comment on screen at a point of the viewport (a right click, a long press), the one drawn
   * last when several overlap; null when there is none. Reads layout: only on such a gesture.
   */
  commentAt(x: number, y: number): DanmakuComment | null {
    for (let i = this.shown.length - 1; i >= 0; i--) {
      const box = this.shown[i].el.getBoundingClientRect();
      if (x >= box.left - HIT_SLOP_PX && x <= box.right + HIT_SLOP_PX && y >= box.top - HIT_SLOP_PX && y <= box.bottom + HIT_SLOP_PX)
        return this.shown[i].comment;
    }
    return null;
  }

  /**
   * What 举报弹幕 lists for the keyboard (the layer itself is aria-hidden): the comments on screen
   * and those of the last RECENT_SECONDS of the video up to now, latest first, at most `limit`.
   */
  recent(limit = 20): DanmakuComment[] {
    const now = this.video.currentTime;
    const seen = new Set<number>();
    const found: DanmakuComment[] = [];
    const take = (c: DanmakuComment) => {
      if (seen.has(c.id)) return;
      seen.add(c.id);
      found.push(c);
    };
    for (const s of this.shown) take(s.comment);
    for (const c of this.comments) if (c.time <= now + 1 && c.time >= now - RECENT_SECONDS) take(c);
    return found.sort((a, b) => b.time - a.time || b.id - a.id).slice(0, limit);
  }

  /** Number of comments on screen. */
  get onScreen(): number {
    return this.shown.length;
  }

  destroy(): void {
    cancelAnimationFrame(this.flushFrame);
    this.flushFrame = 0;
    clearInterval(this.clock);
    this.clock = undefined;
    this.resize?.disconnect();
    for (const type of VIDEO_EVENTS) this.video.removeEventListener(type, this.sync);
    this.clear();
  }

  clear(): void {
    for (const s of this.shown) this.recycle(s);
    this.shown = [];
    this.onScreenIds.clear();
    this.scrollLanes = [];
    this.fixedLanes = { top: [], bottom: [] };
    this.lastTime = this.video.currentTime;
  }

  /** The stage size and font, read once per settings change (then kept current by the ResizeObserver). */
  private readSize(): void {
    this.width = this.root.clientWidth;
    this.height = this.root.clientHeight;
    this.fontFamily = getComputedStyle(this.root).fontFamily || "sans-serif";
  }

  private readonly sync = (event?: Event) => {
    if (event?.type === "seeking") this.clear();
    const running = !this.video.paused && this.video.readyState > 2;
    for (const s of this.shown) {
      if (!s.animation) continue;
      s.animation.playbackRate = this.video.playbackRate;
      if (running) {
        s.ownWhilePaused = false;
        s.animation.play();
      } else if (!s.ownWhilePaused) s.animation.pause();
    }
    if (!this.video.paused && this.clock === undefined) this.clock = setInterval(this.tick, CLOCK_MS);
    else if (this.video.paused && this.clock !== undefined) {
      clearInterval(this.clock);
      this.clock = undefined;
      if (this.pending.length > 0 && this.flushFrame === 0) this.flushFrame = requestAnimationFrame(this.flush);
    }
  };

  private readonly tick = () => {
    const now = this.video.currentTime;
    if (now < this.lastTime || now - this.lastTime > JUMP_S) {
      this.clear();
      return;
    }
    this.expire(now);
    const show = this.pending;
    this.pending = [];
    if (now > this.lastTime) {
      show.push(...this.due(this.lastTime, now));
      this.lastTime = now;
    }
    this.showAll(show, false);
  };

  /** Removes the comments whose time is up (by the video's time, or their own animation's end). */
  private expire(now: number): void {
    if (!this.shown.some((s) => s.end <= now || s.animation?.playState === "finished")) return;
    this.shown = this.shown.filter((s) => {
      const gone = s.end <= now || s.animation?.playState === "finished";
      if (gone) this.recycle(s);
      return !gone;
    });
  }

  private recycle(s: Shown): void {
    s.animation?.cancel();
    s.el.remove();
    this.onScreenIds.delete(s.comment.id);
    for (const lanes of [this.fixedLanes.top, this.fixedLanes.bottom]) {
      const i = lanes.indexOf(s);
      if (i >= 0) lanes[i] = null;
    }
    if (this.pool.length < POOL_MAX) this.pool.push(s.el);
  }

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

  /** Width of a comment's text (px) without touching layout. */
  private measure(text: string): number {
    const ctx = this.measureContext;
    if (!ctx) return text.length * this.options.fontPx;
    ctx.font = `600 ${this.options.fontPx}px ${this.fontFamily}`;
    return Math.ceil(ctx.measureText(text).width) + SHADOW_PX;
  }

  /** Shows comments now: places them in lanes, inserts them in one go, then starts the scrolling ones. */
  private showAll(comments: readonly DanmakuComment[], own: boolean): void {
    const { on, fontPx, area, limit, blocked, reducedMotion } = this.options;
    if (!on || comments.length === 0) return;
    const laneHeight = Math.round(fontPx * 1.3);
    const lanes = Math.max(1, Math.floor((this.height * area) / laneHeight));
    const now = this.video.currentTime;
    const paused = this.video.paused;
    const fragment = document.createDocumentFragment();
    const added: Array<{ shown: Shown; distance: number }> = [];
    for (const comment of comments) {
      if (this.onScreenIds.has(comment.id) || this.shown.length >= limit || containsBlockedWord(comment.text, blocked)) continue;
      const mode: DanmakuMode = comment.mode === "scroll" && reducedMotion ? "top" : comment.mode;
      let place: { lane: number; width: number } | null;
      if (mode === "scroll") {
        const width = this.measure(comment.text);
        const occupants = Array.from({ length: lanes }, (_, i) => {
          const last = this.scrollLanes[i];
          return last ? { width: last.width, elapsed: (now - last.start) * 1000 } : null;
        });
        const lane = pickLane(occupants, width, this.width, SCROLL_MS);
        place = lane >= 0 ? { lane, width } : own ? { lane: 0, width } : null;
        if (place) this.scrollLanes[place.lane] = { width, elapsed: 0, start: now };
      } else {
        const list = this.fixedLanes[mode];
        let lane = Array.from({ length: lanes }, (_, i) => list[i] ?? null).findIndex((s) => s === null);
        if (lane < 0 && own) lane = 0;
        place = lane >= 0 ? { lane, width: 0 } : null;
      }
      if (!place) continue;
      const el = this.pool.pop() ?? document.createElement("span");
      el.className = `danmaku-item danmaku-${mode === "scroll" ? "scroll" : "fixed"}${own ? " danmaku-own" : ""}${isDarkColor(comment.color) ? " danmaku-dark" : ""}`;
      el.textContent = comment.text;
      el.style.color = comment.color;
      el.style.top = mode === "bottom" ? "" : `${place.lane * laneHeight}px`;
      el.style.bottom = mode === "bottom" ? `${place.lane * laneHeight}px` : "";
      el.dataset.id = String(comment.id);
      const duration = mode === "scroll" ? SCROLL_MS : FIXED_MS;
      const shown: Shown = { el, comment, animation: null, start: now, end: now + duration / 1000, ownWhilePaused: own && paused };
      if (mode !== "scroll") {
        const list = this.fixedLanes[mode];
        if (list[place.lane]) this.removeShown(list[place.lane] as Shown);
        list[place.lane] = shown;
      }
      fragment.appendChild(el);
      this.shown.push(shown);
      this.onScreenIds.add(comment.id);
      if (mode === "scroll") added.push({ shown, distance: this.width + place.width });
    }
    this.root.appendChild(fragment);
    for (const { shown, distance } of added) {
      const animation = shown.el.animate([{ transform: "translateX(0)" }, { transform: `translateX(${-distance}px)` }], {
        duration: SCROLL_MS,
        easing: "linear",
      });
      animation.playbackRate = this.video.playbackRate;
      if (paused && !shown.ownWhilePaused) animation.pause();
      shown.animation = animation;
    }
  }

  private removeShown(s: Shown): void {
    this.recycle(s);
    this.shown = this.shown.filter((x) => x !== s);
  }
}

const VIDEO_EVENTS = ["play", "pause", "seeking", "ratechange", "waiting", "playing"] as const;
