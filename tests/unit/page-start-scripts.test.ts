import { describe, expect, it } from "vitest";
import {
  EARLY_HLS_EVENT,
  ENGINE_FLAG,
  FAST_LINK_MBPS,
  HLS_FIRST_FLAG,
  HLS_MIME,
  HLS_SCRIPTS_WAIT_MAX_MS,
  MODULE_FILES_PER_TASK,
  SCRIPTS_WAIT_MAX_MS,
  VIDEO_FIRST_FLAG,
  type EngineKind,
} from "../../shared/playback/engine-choice";
import { pageBootScript, pageHeadScript } from "../../shared/player/page-scripts";

/**
 * The inline scripts of a player page as the server writes them: compiled by the bundler from
 * client/inline/ (the unit project serves `virtual:inline-scripts` as the build does), run here
 * in a stand-in browser.
 */
const PAGE = {
  scripts: ["/assets/entry-abc.js"],
  preloads: ["/assets/react-dom-abc.js", "/assets/VideoPage-abc.js"],
  streamChunks: ["/assets/hls.light-abc.js", "/assets/VideoPlayer-abc.js"],
  hlsStart: ["/assets/hls-start-boot-abc.js", "/assets/config-abc.js", "/assets/hls.light-abc.js"],
};

interface Added {
  tag: string;
  rel?: string;
  href?: string;
  type?: string;
  src?: string;
}

/** A stand-in browser for the inline scripts: what they add to the <head>, their listeners, timers and animation frames. */
function browser(
  caps: { nativeHls: boolean; mse: boolean; managed?: boolean; connection?: { downlink?: number; saveData?: boolean } },
  search = "",
  video: { readyState: number; paused: boolean; error: unknown } | null = null,
  page: typeof PAGE = PAGE,
) {
  const added: Added[] = [];
  type Target = { tagName: string; requestVideoFrameCallback?: (fn: () => void) => void };
  const listeners = new Map<string, Array<(event: { type: string; target: Target }) => void>>();
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const document = {
    createElement: (tag: string) => (tag === "video" ? { canPlayType: (type: string) => (type === HLS_MIME && caps.nativeHls ? "maybe" : "") } : { tag }),
    head: { appendChild: (el: Added) => added.push(el) },
    documentElement: { dataset: {} },
    querySelector: (selector: string) => (selector === "video" ? video : null),
    addEventListener: (type: string, fn: (event: { type: string; target: Target }) => void, options?: { capture?: boolean }) => {
      // Media events do not bubble: only a capturing listener on the document sees them.
      if (type !== "DOMContentLoaded") expect(options?.capture).toBe(true);
      listeners.set(type, [...(listeners.get(type) ?? []), fn]);
    },
  };
  const window: Record<string, unknown> = {
    // What the same inline script sets before the boot script (worker/ssr.tsx).
    __ASSETS__: page,
    // The early controls' listeners (tests/e2e/early-input.test.ts drives them in Chromium).
    addEventListener: () => {},
    ...(caps.managed ? { ManagedMediaSource: function ManagedMediaSource() {} } : caps.mse ? { MediaSource: function MediaSource() {} } : {}),
  };
  const setTimeout = (fn: () => void, ms = 0) => timers.push({ fn, ms });
  /** The callbacks of the next animation frame. */
  const frames: Array<() => void> = [];
  const requestAnimationFrame = (fn: () => void) => frames.push(fn);
  /** Runs the first task queued without a delay (a setTimeout(fn) or setTimeout(fn, 0)); false when there is none. */
  const task = () => {
    const i = timers.findIndex((t) => t.ms === 0);
    if (i < 0) return false;
    timers.splice(i, 1)[0].fn();
    return true;
  };
  /** The observers the script made: what the parser inserts is handed to them with `insert`. */
  const observers: Array<{ callback: (records: Array<{ addedNodes: unknown[] }>) => void; connected: boolean }> = [];
  class FakeMutationObserver {
    #entry: (typeof observers)[number];
    constructor(callback: (records: Array<{ addedNodes: unknown[] }>) => void) {
      this.#entry = { callback, connected: false };
      observers.push(this.#entry);
    }
    observe() {
      this.#entry.connected = true;
    }
    disconnect() {
      this.#entry.connected = false;
    }
  }
  const run = (script: string) => {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the script is the server's inline <script>, run as the browser runs it
    const asTheBrowserRunsIt = new Function(
      "document",
      "window",
      "location",
      "setTimeout",
      "requestAnimationFrame",
      "navigator",
      "MutationObserver",
      script,
    ) as (...args: unknown[]) => void;
    asTheBrowserRunsIt(document, window, { search }, setTimeout, requestAnimationFrame, { connection: caps.connection }, FakeMutationObserver);
  };
  return {
    added,
    window,
    timers,
    frames,
    observers,
    task,
    /** The next animation frame: its callbacks run. */
    frame: () => frames.splice(0).forEach((fn) => fn()),
    /** Every frame and undelayed task, until none is left (the timers with a delay stay). */
    settle: () => {
      do frames.splice(0).forEach((fn) => fn());
      while (task() || frames.length > 0);
    },
    /** The parser inserting `node`: every connected observer gets its record. */
    insert: (node: unknown) => observers.filter((o) => o.connected).forEach((o) => o.callback([{ addedNodes: [node] }])),
    fire: (type: string, tagName = "VIDEO") => listeners.get(type)?.forEach((fn) => fn({ type, target: { tagName } })),
    /** `playing` on a video with requestVideoFrameCallback: returns the frame callbacks it asked for. */
    firePlayingWithFrames: () => {
      const frames: Array<() => void> = [];
      listeners.get("playing")?.forEach((fn) => fn({ type: "playing", target: { tagName: "VIDEO", requestVideoFrameCallback: (cb) => frames.push(cb) } }));
      return frames;
    },
    head: () => run(pageHeadScript(PAGE)),
    boot: () => run(pageBootScript(page)),
  };
}

const modulePreloads = (files: string[]): Added[] => files.map((href) => ({ tag: "link", rel: "modulepreload", href }));
const entry: Added[] = [{ tag: "script", type: "module", src: "/assets/entry-abc.js" }];

describe("the inline scripts that start a player page's JavaScript", () => {
  type Probe = { nativeHls: boolean; mse: boolean; connection?: { downlink?: number; saveData?: boolean } };
  // What the browser answers, the page's ?engine=, the engine the head script must choose.
  const cases: Array<[name: string, probe: Probe, search: string, engine: EngineKind]> = [
    ["Safari (native HLS, no link estimate)", { nativeHls: true, mse: true }, "", "native"],
    ["Chromium with its own HLS on a slow link", { nativeHls: true, mse: true, connection: { downlink: 1.6 } }, "", "native"],
    ["Chromium with its own HLS on a fast link", { nativeHls: true, mse: true, connection: { downlink: 9 } }, "", "hlsjs"],
    ["a link of exactly FAST_LINK_MBPS", { nativeHls: true, mse: true, connection: { downlink: FAST_LINK_MBPS } }, "", "hlsjs"],
    ["a fast link with data saving", { nativeHls: true, mse: true, connection: { downlink: 10, saveData: true } }, "", "native"],
    ["Firefox (MSE only)", { nativeHls: false, mse: true, connection: { downlink: 9 } }, "", "hlsjs"],
    ["neither", { nativeHls: false, mse: false }, "", "progressive"],
    ["?engine=progressive", { nativeHls: true, mse: true }, "?engine=progressive", "progressive"],
    ["?engine=hlsjs on a slow link", { nativeHls: true, mse: true, connection: { downlink: 1.6 } }, "?engine=hlsjs", "hlsjs"],
    ["?engine=native without native HLS", { nativeHls: false, mse: true }, "?engine=native", "hlsjs"],
    ["?engine=native on a fast link", { nativeHls: true, mse: true, connection: { downlink: 9 } }, "?engine=native", "native"],
    ["an unknown ?engine=", { nativeHls: false, mse: false }, "?engine=other", "progressive"],
  ];
  for (const [name, probe, search, engine] of cases)
    it(`${name}: plays with ${engine} and fetches only what that path needs before the first frame`, () => {
      const b = browser(probe, search);
      b.head();
      // The player plays with the engine the page started (pageEngine reads this).
      expect(b.window[ENGINE_FLAG]).toBe(engine);
      if (engine === "native") {
        // The video goes first: nothing is fetched before its first frame.
        expect(b.window[VIDEO_FIRST_FLAG]).toBe(true);
        expect(b.window[HLS_FIRST_FLAG]).toBeUndefined();
        expect(b.added).toEqual([]);
      } else if (engine === "hlsjs") {
        // hls.js goes first: only its early start and hls.js itself before the first frame.
        expect(b.window[HLS_FIRST_FLAG]).toBe(true);
        expect(b.window[VIDEO_FIRST_FLAG]).toBeUndefined();
        expect(b.added).toEqual(modulePreloads(PAGE.hlsStart));
      } else {
        expect(b.window[VIDEO_FIRST_FLAG]).toBeUndefined();
        expect(b.window[HLS_FIRST_FLAG]).toBeUndefined();
        expect(b.added).toEqual(modulePreloads([...PAGE.scripts, ...PAGE.preloads]));
      }
    });

  it("counts Safari's ManagedMediaSource as MSE", () => {
    const b = browser({ nativeHls: false, mse: false, managed: true });
    b.head();
    expect(b.added).toEqual(modulePreloads(PAGE.hlsStart));
  });

  it("adds the entry at once where the page does not wait for the video (the progressive MP4)", () => {
    const b = browser({ nativeHls: false, mse: false });
    b.head();
    b.added.length = 0;
    b.boot();
    expect(b.added).toEqual(entry);
    expect(b.timers).toEqual([]);
  });

  for (const event of ["playing", "error", "pointerdown", "touchstart", "keydown"])
    it(`with native HLS, fetches the page's modules on the video's or visitor's first ${event}, once`, () => {
      const b = browser({ nativeHls: true, mse: true }, "", { readyState: 0, paused: true, error: null });
      b.head();
      b.boot();
      expect(b.added).toEqual([]);
      b.fire(event);
      b.settle();
      expect(b.added).toEqual([...entry, ...modulePreloads(PAGE.preloads)]);
      b.fire("playing");
      b.settle();
      b.timers.forEach((t) => t.fn());
      expect(b.added).toHaveLength(PAGE.preloads.length + 1);
    });

  it("with native HLS, waits after `playing` for the first frame on screen (requestVideoFrameCallback)", () => {
    const b = browser({ nativeHls: true, mse: true }, "", { readyState: 0, paused: true, error: null });
    b.head();
    b.boot();
    const frames = b.firePlayingWithFrames();
    expect(frames).toHaveLength(1);
    expect(b.added).toEqual([]);
    frames[0]();
    // In a task after that frame's callbacks, not in the frame.
    expect(b.added).toEqual([]);
    b.settle();
    expect(b.added).toEqual([...entry, ...modulePreloads(PAGE.preloads)]);
  });

  it("with native HLS, an error of another element (a broken cover image) does not start them", () => {
    const b = browser({ nativeHls: true, mse: true }, "", { readyState: 0, paused: true, error: null });
    b.head();
    b.boot();
    b.fire("error", "IMG");
    expect(b.added).toEqual([]);
    b.fire("error", "SOURCE");
    expect(b.added).toEqual([...entry, ...modulePreloads(PAGE.preloads)]);
  });

  it(`with native HLS, fetches them after ${SCRIPTS_WAIT_MAX_MS} ms when the video does not start`, () => {
    const b = browser({ nativeHls: true, mse: true }, "", { readyState: 0, paused: true, error: null });
    b.head();
    b.boot();
    expect(b.timers.map((t) => t.ms)).toEqual([SCRIPTS_WAIT_MAX_MS]);
    b.timers[0].fn();
    expect(b.added).toEqual([...entry, ...modulePreloads(PAGE.preloads)]);
  });

  it("with native HLS, waits past the first decoded frame (loadeddata) for playback itself", () => {
    const b = browser({ nativeHls: true, mse: true }, "", { readyState: 2, paused: true, error: null });
    b.head();
    b.boot();
    b.fire("loadeddata");
    expect(b.added).toEqual([]);
  });

  it("with native HLS, fetches them at once when the video already plays or failed", () => {
    for (const video of [
      { readyState: 4, paused: false, error: null },
      { readyState: 0, paused: true, error: { code: 4 } },
    ]) {
      const b = browser({ nativeHls: true, mse: true }, "", video);
      b.head();
      b.boot();
      expect(b.added).toEqual([...entry, ...modulePreloads(PAGE.preloads)]);
    }
  });

  it("where hls.js plays in a browser with its own HLS (a fast link), takes the src off the server's HLS <source> as it is inserted", () => {
    const b = browser({ nativeHls: true, mse: true, connection: { downlink: 9 } });
    b.head();
    expect(b.window[ENGINE_FLAG]).toBe("hlsjs");
    const source = (type: string, streamVideo: boolean) => {
      const attributes = new Map([["src", "/stream/1/master.m3u8"]]);
      return {
        tagName: "SOURCE",
        type,
        parentNode: { hasAttribute: (name: string) => name === "data-stream" && streamVideo },
        removeAttribute: (name: string) => attributes.delete(name),
        src: () => attributes.get("src"),
      };
    };
    const track = source("text/vtt", true);
    const otherVideo = source(HLS_MIME, false);
    b.insert(track);
    b.insert(otherVideo);
    expect(track.src()).toBe("/stream/1/master.m3u8");
    expect(otherVideo.src()).toBe("/stream/1/master.m3u8");
    const stream = source(HLS_MIME, true);
    b.insert(stream);
    expect(stream.src()).toBeUndefined();
    expect(b.observers.every((o) => !o.connected)).toBe(true); // one <source>, then it stops looking
  });

  it("watches no insertion where the browser plays the stream itself, or where hls.js is its only way", () => {
    for (const caps of [
      { nativeHls: true, mse: true, connection: { downlink: 1.6 } },
      { nativeHls: false, mse: true, connection: { downlink: 9 } },
    ]) {
      const b = browser(caps);
      b.head();
      expect(b.observers).toEqual([]);
    }
  });

  const earlyStart: Added[] = [{ tag: "script", type: "module", src: PAGE.hlsStart[0] }];
  const afterEarlyStart = [...entry, ...modulePreloads([...PAGE.preloads, ...PAGE.streamChunks])];

  it("with hls.js, adds the early start at once and the page's modules only once it has a head start", () => {
    const b = browser({ nativeHls: false, mse: true });
    b.head();
    b.added.length = 0;
    b.boot();
    expect(b.added).toEqual(earlyStart);
    b.fire("playing");
    b.fire("loadeddata");
    expect(b.added).toEqual(earlyStart);
    b.fire(EARLY_HLS_EVENT);
    b.settle();
    expect(b.added).toEqual([...earlyStart, ...afterEarlyStart]);
    b.fire(EARLY_HLS_EVENT);
    b.timers.forEach((t) => t.fn());
    expect(b.added).toHaveLength(earlyStart.length + afterEarlyStart.length);
  });

  for (const event of ["pointerdown", "touchstart", "keydown"])
    it(`with hls.js, fetches the page's modules on the visitor's first ${event}`, () => {
      const b = browser({ nativeHls: false, mse: true });
      b.head();
      b.added.length = 0;
      b.boot();
      b.fire(event);
      b.settle();
      expect(b.added).toEqual([...earlyStart, ...afterEarlyStart]);
    });

  it("with hls.js, an error of the video starts them, one of the server's HLS <source> (unplayable there) does not", () => {
    const b = browser({ nativeHls: false, mse: true });
    b.head();
    b.added.length = 0;
    b.boot();
    b.fire("error", "SOURCE");
    b.fire("error", "IMG");
    expect(b.added).toEqual(earlyStart);
    b.fire("error", "VIDEO");
    b.settle();
    expect(b.added).toEqual([...earlyStart, ...afterEarlyStart]);
  });

  it(`with hls.js, fetches them after ${HLS_SCRIPTS_WAIT_MAX_MS} ms when the early start says nothing`, () => {
    const b = browser({ nativeHls: false, mse: true });
    b.head();
    b.added.length = 0;
    b.boot();
    expect(b.timers.map((t) => t.ms)).toEqual([HLS_SCRIPTS_WAIT_MAX_MS]);
    b.timers[0].fn();
    b.settle();
    expect(b.added).toEqual([...earlyStart, ...afterEarlyStart]);
  });

  // INP (docs/performance.md): the ~32 requests of /video in the tap's own task held its next paint ~370 ms on a 4× slower CPU.
  for (const event of ["pointerdown", "touchstart", "keydown"])
    it(`on the visitor's first ${event}, asks for the page's files only after the frame that answers it, ${MODULE_FILES_PER_TASK} per task`, () => {
      const many = { ...PAGE, preloads: Array.from({ length: 10 }, (_, i) => `/assets/chunk-${i}.js`) };
      const b = browser({ nativeHls: true, mse: true }, "", { readyState: 0, paused: true, error: null }, many);
      b.head();
      b.boot();
      b.fire(event);
      b.fire("pointerdown");
      // Nothing in the event's own task, nor in the frame that follows it.
      expect(b.added).toEqual([]);
      expect(b.frames).toHaveLength(1);
      b.frame();
      expect(b.added).toEqual([]);
      const perTask: number[] = [];
      while (b.task()) perTask.push(b.added.length - perTask.reduce((a, n) => a + n, 0));
      expect(perTask).toEqual([4, 4, 3]);
      expect(b.added).toEqual([...entry, ...modulePreloads(many.preloads)]);
    });

  it(`once the video's first frame is on screen, asks for at most ${MODULE_FILES_PER_TASK} files per task, the rest in the tasks after`, () => {
    const many = { ...PAGE, preloads: Array.from({ length: 9 }, (_, i) => `/assets/chunk-${i}.js`) };
    const b = browser({ nativeHls: true, mse: true }, "", { readyState: 0, paused: true, error: null }, many);
    b.head();
    b.boot();
    b.firePlayingWithFrames()[0]();
    const perTask: number[] = [];
    while (b.task()) perTask.push(b.added.length - perTask.reduce((a, n) => a + n, 0));
    expect(perTask).toEqual([4, 4, 2]);
    expect(b.added).toEqual([...entry, ...modulePreloads(many.preloads)]);
  });

  it("names each of the route's chunks once (the boot script is in every player page's HTML)", () => {
    const boot = pageBootScript(PAGE);
    for (const file of [...PAGE.scripts, ...PAGE.preloads]) expect(boot.split(file)).toHaveLength(2);
  });

  it("cannot end the <script> element early", () => {
    const page = { scripts: ["/assets/</script><b>.js"], preloads: ["/assets/</script>.js"], streamChunks: [], hlsStart: ["/assets/</script>.js"] };
    expect(pageHeadScript(page)).not.toContain("</script>");
    expect(pageBootScript(page)).not.toContain("</script>");
  });
});
