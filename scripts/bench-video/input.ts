/**
 * How soon and how fast the player page answers the viewer (issue 31; docs/decisions/0017-early-input.md),
 * for `npm run bench:video`, on a 390 px touch page behind the run's link, a first visit:
 * - the first effective tap: from the first frame on, play/pause is tapped again and again; the
 *   figure is the first tap after which the video's paused state changed;
 * - interaction to next paint in the page's first 10 s with a 4× CPU slowdown: taps on play/pause
 *   and mute from the moment the controls are there, their latencies from the Event Timing API.
 */
import type { Browser, Page } from "playwright-core";
import { ENGINE_FLAG } from "../../shared/playback/engine-choice";
import type { NetworkProfile } from "./measure";
import { throttledPage, TOUCH_PHONE } from "./page";
import { TRACE_CATEGORIES } from "./trace";

export interface FirstTapFigures {
  profile: string;
  /** Navigation start → the first presented frame (as measurePlayback), ms. */
  firstFrameMs: number | null;
  /**
   * Navigation start → the first tap the bench sent after the first frame (its touchstart), ms:
   * minus the first frame it is the bench's own reaction time (the frame's detection and the
   * tap's dispatch through CDP, slower on a loaded machine), not the page's.
   */
  firstTapMs: number | null;
  /** Navigation start → the tap that first changed the video's paused state (its touchstart), ms; null when none did in TAP_GIVE_UP_MS. */
  firstEffectiveTapMs: number | null;
  /** That tap minus the first frame: how long the controls were dead while the video played, ms. */
  deadMs: number | null;
  /** Taps after the first frame up to and including the effective one (all the taps sent when none was). */
  taps: number;
  /** Navigation start → <html data-hydrated>, ms (null when not within a minute). */
  hydratedMs: number | null;
  /** The engine the page chose (the player's data-engine, or the head script's choice before it hydrated). */
  engineUsed: string;
}

export interface InpFigures {
  profile: string;
  cpuSlowdown: number;
  /** Taps sent in the first INP_WINDOW_MS. */
  taps: number;
  /** When the controls were in the page, and when each tap was sent (this side's clock, from just before the navigation), ms. */
  controlsAtMs: number;
  sentAtMs: number[];
  /** Each interaction's latency (the longest entry of its interactionId), ms, highest first; an interaction under 16 ms has no entry and counts as 16. */
  interactionsMs: number[];
  /** The page's INP (web-vitals: the highest latency, one ignored per 50 interactions), ms. */
  inpMs: number | null;
  /** p75 of this page's interaction latencies, ms. */
  p75Ms: number | null;
  hydratedMs: number | null;
  /**
   * Interactions of SLOW_INTERACTION_MS or more, in the order of the taps: when (from navigation
   * start), how long, and its three parts as Event Timing splits them — input delay (the main
   * thread busy before the handlers ran), processing (the handlers), presentation (the handlers'
   * end → the next frame on screen) — and the event and its target of the longest entry, ms.
   */
  slowInteractions: Array<{
    atMs: number;
    durationMs: number;
    inputDelayMs: number;
    processingMs: number;
    presentationMs: number;
    event: string;
    target: string;
  }>;
  /** Long animation frames (≥ 50 ms) that began in the window, with their scripts. */
  longFrames: LongFrame[];
}

export interface InpOptions {
  /** Records a Chromium performance trace of the page (scripts/bench-video/trace.ts) and hands it over as JSON. */
  onTrace?: (json: string) => void;
}

/** The play/pause button the server draws (shared/player/PlayerControls.tsx; the early controls drive it before hydration). */
const PLAY_BUTTON = ".player [data-act=play]";
const MUTE_BUTTON = ".player [data-act=mute]";
const TAP_GIVE_UP_MS = 30_000;
/** The window INP is measured in, from navigation start, and the time between taps in it. */
const INP_WINDOW_MS = 10_000;
const INP_TAP_EVERY_MS = 600;
export const INP_CPU_SLOWDOWN = 4;
/** Event Timing reports no entry under this (its minimum durationThreshold). */
const EVENT_THRESHOLD_MS = 16;
/** Interactions reported one by one (slowInteractions): half the INP target. */
const SLOW_INTERACTION_MS = 100;

/** In-page: the first presented frame, play/pause events, each touchstart's time, hydration. */
const INPUT_PROBE = () => {
  const w = window as unknown as { __vi: { events: Array<[string, number]>; taps: number[] } };
  w.__vi = { events: [], taps: [] };
  let framed = false;
  for (const type of ["playing", "play", "pause"]) {
    document.addEventListener(
      type,
      (e) => {
        if (!(e.target instanceof HTMLVideoElement)) return;
        const v = e.target;
        w.__vi.events.push([type, performance.now()]);
        if (type === "playing" && !framed && "requestVideoFrameCallback" in v) {
          framed = true;
          v.requestVideoFrameCallback((_now, meta) => w.__vi.events.push(["frame", meta.presentationTime]));
        }
      },
      true,
    );
  }
  // On window while capturing, installed before any of the page's scripts: it sees every tap first.
  window.addEventListener("touchstart", (e) => w.__vi.taps.push(e.timeStamp), { capture: true, passive: true });
  new MutationObserver(() => {
    if (document.documentElement?.dataset.hydrated === "true" && !w.__vi.events.some(([t]) => t === "hydrated"))
      w.__vi.events.push(["hydrated", performance.now()]);
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-hydrated"] });
};

/** One Event Timing entry of an interaction, as the page saw it (times from navigation start, ms). */
interface EventEntry {
  id: number;
  duration: number;
  name: string;
  start: number;
  processingStart: number;
  processingEnd: number;
  /** The event's target: its tag, data-act or first class. */
  target: string;
}

/** In-page: every Event Timing entry of an interaction (durationThreshold 16, the API's minimum). */
const EVENT_TIMING_PROBE = () => {
  const w = window as unknown as { __vt: EventEntry[] };
  w.__vt = [];
  new PerformanceObserver((list) => {
    // interactionId: Event Timing level 2 (Chromium), not yet in TypeScript's DOM types.
    for (const entry of list.getEntries() as Array<PerformanceEventTiming & { interactionId?: number }>) {
      if (!entry.interactionId) continue;
      const t = entry.target instanceof Element ? entry.target : null;
      const target = t
        ? `${t.tagName.toLowerCase()}${t.getAttribute("data-act") ? `[data-act=${t.getAttribute("data-act")}]` : t.classList[0] ? `.${t.classList[0]}` : ""}`
        : "—";
      w.__vt.push({
        id: entry.interactionId,
        duration: entry.duration,
        name: entry.name,
        start: entry.startTime,
        processingStart: entry.processingStart,
        processingEnd: entry.processingEnd,
        target,
      });
    }
  }).observe({ type: "event", durationThreshold: 16, buffered: true } as PerformanceObserverInit);
};

/** A long animation frame (≥ 50 ms) and the scripts in it, as the page saw it (ms from navigation start). */
export interface LongFrame {
  start: number;
  duration: number;
  blocking: number;
  /** When the frame's rendering (rAF, style, layout, paint) started, and its style and layout; 0 when the frame did not render. */
  renderStart: number;
  styleAndLayoutStart: number;
  scripts: Array<{ invoker: string; source: string; start: number; duration: number; forcedStyleAndLayout: number }>;
}

/** In-page: every long animation frame (PerformanceObserver "long-animation-frame", Chromium's LoAF API). */
const LONG_FRAME_PROBE = () => {
  const w = window as unknown as { __lf: LongFrame[] };
  w.__lf = [];
  type Script = { invoker: string; sourceURL: string; sourceFunctionName: string; startTime: number; duration: number; forcedStyleAndLayoutDuration: number };
  type Frame = PerformanceEntry & { blockingDuration: number; renderStart: number; styleAndLayoutStart: number; scripts: Script[] };
  const short = (url: string) => (url === location.href ? "inline" : url.split("/").pop() || url);
  try {
    new PerformanceObserver((list) => {
      for (const f of list.getEntries() as Frame[])
        w.__lf.push({
          start: Math.round(f.startTime),
          duration: Math.round(f.duration),
          blocking: Math.round(f.blockingDuration),
          renderStart: Math.round(f.renderStart),
          styleAndLayoutStart: Math.round(f.styleAndLayoutStart),
          scripts: f.scripts.map((s) => ({
            invoker: s.invoker,
            source: `${short(s.sourceURL)}${s.sourceFunctionName ? ` ${s.sourceFunctionName}` : ""}`,
            start: Math.round(s.startTime),
            duration: Math.round(s.duration),
            forcedStyleAndLayout: Math.round(s.forcedStyleAndLayoutDuration),
          })),
        });
    }).observe({ type: "long-animation-frame", buffered: true });
  } catch {
    // A browser without the API: no long frames reported.
  }
};

type Probe = { __vi: { events: Array<[string, number]>; taps: number[] } };
const eventAt = (page: Page, name: string) => page.evaluate((n) => (window as unknown as Probe).__vi.events.find(([t]) => t === n)?.[1] ?? null, name);

/** Taps the centre of `selector` (it must be in the layout); false when it has no box. */
async function tapOn(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) return false;
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  return true;
}

/** The player's engine, or before it has hydrated the head script's choice (window[ENGINE_FLAG]). */
const engineOf = (page: Page) =>
  page.evaluate((flag) => {
    const chosen = (window as unknown as Record<string, unknown>)[flag];
    return document.querySelector<HTMLElement>(".player")?.dataset.engine ?? `${typeof chosen === "string" ? chosen : "?"} (not hydrated)`;
  }, ENGINE_FLAG);

export async function measureFirstTap(browser: Browser, url: string, profile: NetworkProfile, throttle: "front" | "cdp"): Promise<FirstTapFigures> {
  const { context, page } = await throttledPage(browser, profile, throttle, TOUCH_PHONE, [INPUT_PROBE]);
  try {
    await page.goto(url, { waitUntil: "commit" });
    await page.waitForFunction(() => (window as unknown as Probe).__vi?.events.some(([t]) => t === "frame"), undefined, { timeout: 120_000, polling: 10 });
    const firstFrame = await eventAt(page, "frame");
    const deadline = Date.now() + TAP_GIVE_UP_MS;
    let taps = 0;
    let effective: { at: number; index: number } | null = null;
    // Again and again, each tap as soon as the one before has been dispatched and looked at.
    while (effective === null && Date.now() < deadline) {
      if (await tapOn(page, PLAY_BUTTON)) taps++;
      effective = await page.evaluate((frame) => {
        const vi = (window as unknown as Probe).__vi;
        // After the first frame the video plays: the first play or pause event is a tap's doing
        // (never the autoplay's). The event comes a task after the change: `paused` says it at once.
        const change =
          vi.events.find(([t, at]) => (t === "play" || t === "pause") && at > (frame ?? 0))?.[1] ??
          (document.querySelector("video")?.paused ? performance.now() : undefined);
        if (change === undefined) return null;
        const taps = vi.taps.filter((at) => at > (frame ?? 0) && at <= change);
        return taps.length === 0 ? null : { at: taps[taps.length - 1], index: taps.length };
      }, firstFrame);
    }
    const firstTap = await page.evaluate((frame) => (window as unknown as Probe).__vi.taps.find((at) => at > (frame ?? 0)) ?? null, firstFrame);
    // Hydration on this page too (the taps started the page's modules on the native path, as a viewer's would).
    await page
      .waitForFunction(() => document.documentElement.dataset.hydrated === "true" && !!document.querySelector(".player[data-engine]"), undefined, {
        timeout: 60_000,
      })
      .catch(() => undefined);
    const hydrated = await eventAt(page, "hydrated");
    const round = (ms: number | null) => (ms === null ? null : Math.round(ms));
    return {
      profile: profile.name,
      firstFrameMs: round(firstFrame),
      firstTapMs: round(firstTap),
      firstEffectiveTapMs: round(effective?.at ?? null),
      deadMs: effective === null || firstFrame === null ? null : Math.max(0, Math.round(effective.at - firstFrame)),
      taps: effective?.index ?? taps,
      hydratedMs: round(hydrated),
      engineUsed: await engineOf(page),
    };
  } finally {
    await context.close();
  }
}

/** p-th percentile (nearest rank) of the values. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export async function measureInp(
  browser: Browser,
  url: string,
  profile: NetworkProfile,
  throttle: "front" | "cdp",
  options: InpOptions = {},
): Promise<InpFigures> {
  const { context, page, cdp } = await throttledPage(browser, profile, throttle, TOUCH_PHONE, [INPUT_PROBE, EVENT_TIMING_PROBE, LONG_FRAME_PROBE]);
  try {
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: INP_CPU_SLOWDOWN });
    if (options.onTrace) await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    // The window is counted on this side: with the page's main thread slowed down, every
    // round trip to it (a performance.now(), a layout box) waits as long as a tap does.
    const navigation = Date.now();
    await page.goto(url, { waitUntil: "commit" });
    await page.locator(PLAY_BUTTON).waitFor({ state: "attached", timeout: INP_WINDOW_MS });
    const controlsAtMs = Date.now() - navigation;
    // Pause, play, sound on, sound off, …: each pair leaves the page as it was (a phone's player
    // shows no mute button: there pause, play). The boxes are read once (the controls do not
    // move): each read is a round trip to the busy page.
    const centre = async (selector: string) => {
      const box = await page.locator(selector).first().boundingBox();
      return box && box.width > 0 ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : null;
    };
    const play = await centre(PLAY_BUTTON);
    const mute = await centre(MUTE_BUTTON);
    const order = play ? (mute ? [play, play, mute, mute] : [play, play]) : [];
    const sentAtMs: number[] = [];
    while (order.length > 0 && Date.now() - navigation < INP_WINDOW_MS) {
      const sent = Date.now();
      const at = order[sentAtMs.length % order.length];
      sentAtMs.push(sent - navigation);
      await page.touchscreen.tap(at.x, at.y);
      const next = Math.min(sent + INP_TAP_EVERY_MS, navigation + INP_WINDOW_MS);
      if (next > Date.now()) await page.waitForTimeout(next - Date.now());
    }
    const taps = sentAtMs.length;
    // The last tap's entries are reported once its next frame is presented: two frames and a moment.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 100)))));
    if (options.onTrace) options.onTrace((await browser.stopTracing()).toString("utf8"));
    const entries = await page.evaluate(() => (window as unknown as { __vt: EventEntry[] }).__vt);
    // Each interaction's longest entry (the first of equals: the one that waited for the frame).
    const byInteraction = new Map<number, EventEntry>();
    for (const e of entries) if (e.duration > (byInteraction.get(e.id)?.duration ?? -1)) byInteraction.set(e.id, e);
    const measured = [...byInteraction.values()].map((e) => e.duration);
    const slowInteractions = [...byInteraction.values()]
      .filter((e) => e.duration >= SLOW_INTERACTION_MS)
      .sort((a, b) => a.start - b.start)
      .map((e) => ({
        atMs: Math.round(e.start),
        durationMs: e.duration,
        inputDelayMs: Math.round(e.processingStart - e.start),
        processingMs: Math.round(e.processingEnd - e.processingStart),
        presentationMs: Math.round(e.start + e.duration - e.processingEnd),
        event: e.name,
        target: e.target,
      }));
    const longFrames = (await page.evaluate(() => (window as unknown as { __lf: LongFrame[] }).__lf)).filter((f) => f.start < INP_WINDOW_MS);
    // Interactions without an entry took under 16 ms.
    const interactionsMs = [...measured, ...Array<number>(Math.max(0, taps - measured.length)).fill(EVENT_THRESHOLD_MS)].sort((a, b) => b - a);
    const inpMs = interactionsMs.length === 0 ? null : interactionsMs[Math.min(interactionsMs.length - 1, Math.floor(interactionsMs.length / 50))];
    return {
      profile: profile.name,
      cpuSlowdown: INP_CPU_SLOWDOWN,
      taps,
      controlsAtMs,
      sentAtMs,
      interactionsMs,
      inpMs,
      p75Ms: percentile(interactionsMs, 75),
      hydratedMs: await eventAt(page, "hydrated").then((ms) => (ms === null ? null : Math.round(ms))),
      slowInteractions,
      longFrames,
    };
  } finally {
    await context.close();
  }
}
