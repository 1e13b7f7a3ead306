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

/** In-page: every Event Timing entry of an interaction (durationThreshold 16, the API's minimum). */
const EVENT_TIMING_PROBE = () => {
  const w = window as unknown as { __vt: Array<{ id: number; duration: number; name: string; start: number }> };
  w.__vt = [];
  new PerformanceObserver((list) => {
    // interactionId: Event Timing level 2 (Chromium), not yet in TypeScript's DOM types.
    for (const entry of list.getEntries() as Array<PerformanceEventTiming & { interactionId?: number }>)
      if (entry.interactionId) w.__vt.push({ id: entry.interactionId, duration: entry.duration, name: entry.name, start: entry.startTime });
  }).observe({ type: "event", durationThreshold: 16, buffered: true } as PerformanceObserverInit);
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

export async function measureInp(browser: Browser, url: string, profile: NetworkProfile, throttle: "front" | "cdp"): Promise<InpFigures> {
  const { context, page, cdp } = await throttledPage(browser, profile, throttle, TOUCH_PHONE, [INPUT_PROBE, EVENT_TIMING_PROBE]);
  try {
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: INP_CPU_SLOWDOWN });
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
    const entries = await page.evaluate(() => (window as unknown as { __vt: Array<{ id: number; duration: number }> }).__vt);
    const byInteraction = new Map<number, number>();
    for (const e of entries) byInteraction.set(e.id, Math.max(byInteraction.get(e.id) ?? 0, e.duration));
    const measured = [...byInteraction.values()];
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
    };
  } finally {
    await context.close();
  }
}
