/**
 * The inline script that starts the page's JavaScript on a page with a player, placed after the
 * hydration data (the server's bootstrap script, worker/ssr.tsx), so after the <video>. The
 * bundler compiles it into a minified script (scripts/inline-scripts.ts), and the server writes
 * the page's files in for PAGE_FILES (shared/player/page-scripts.ts):
 * - where the head script (page-head.ts) chose "native", it waits for the video's first frame on
 *   screen (`playing`, then its first requestVideoFrameCallback), an error of the video or its
 *   <source>, the visitor's first touch, click or key, or SCRIPTS_WAIT_MAX_MS — whichever comes
 *   first — then preloads the page's modules and adds the entry;
 * - where it chose "hlsjs", it adds the early start of hls.js at once and the page's modules (with
 *   the hls.js and player chunks) on EARLY_HLS_EVENT, an error of the video, the visitor's first
 *   touch, click or key, or HLS_SCRIPTS_WAIT_MAX_MS (a <source> error does not count there: the
 *   server's HLS <source> is one the browser cannot play, or one the head script took the src off);
 * - elsewhere it adds the entry at once.
 * It asks for them a few files per task (MODULE_FILES_PER_TASK), and on a tap or a key only once
 * the frame that answers it is on screen: all ~32 files of /video in the tap's own task made that
 * tap's next paint ~370 ms late on a 4× slower CPU (docs/performance.md, INP).
 * Before all that it installs the early controls (early-controls.ts): from here until the player
 * has hydrated, the server's controls answer the viewer on the server's <video>. (Here, at the end
 * of the body, rather than in the head: the head's bytes come before the stylesheet's request.)
 * The hls.js path's files (hls.js, the player island, the early start) are read from
 * `window.__ASSETS__` (the DocumentAssets the same inline script sets just before), not written
 * out here: what the script names is what every browser fetches before it hydrates
 * (scripts/page-scripts.mjs counts it against the route's JavaScript budget).
 */
import {
  EARLY_HLS_EVENT,
  HLS_FIRST_FLAG,
  HLS_SCRIPTS_WAIT_MAX_MS,
  MODULE_FILES_PER_TASK,
  SCRIPTS_WAIT_MAX_MS,
  VIDEO_FIRST_FLAG,
  type BootScriptFiles,
} from "../../shared/playback/engine-choice";
import { addModule, preload } from "./dom";
import { installEarlyControls } from "./early-controls";

/** Written in by the server: the entry module(s), and the route's chunks. */
declare const PAGE_FILES: BootScriptFiles;

const [scripts, preloads] = PAGE_FILES;
const flags = window as unknown as Record<string, unknown>;
const videoFirst = flags[VIDEO_FIRST_FLAG] === true;
const hlsFirst = flags[HLS_FIRST_FLAG] === true;
let started = false;
let asked = false;

/**
 * The page's modules, once: MODULE_FILES_PER_TASK files now and the rest in tasks of their own, one after
 * another (the entry first, then the route's chunks, as the link sends them in that order), so a
 * tap or a frame meanwhile waits for one short task, not for all of them.
 */
function start(): void {
  if (started) return;
  started = true;
  // A player page's assets name the stream chunks and the early start (shared/Document.tsx, playerPageScripts).
  const chunks = hlsFirst ? [...preloads, ...window.__ASSETS__.streamChunks!] : videoFirst ? preloads : [];
  const queue = [...scripts.map((src) => () => addModule(src)), ...chunks.map((href) => () => preload([href]))];
  const next = () => {
    for (const add of queue.splice(0, MODULE_FILES_PER_TASK)) add();
    if (queue.length > 0) setTimeout(next);
  };
  next();
}

/** start(), once the next frame is on screen (after the frame that answers a tap, or the video's first frame). */
function startAfterFrame(): void {
  if (asked) return;
  asked = true;
  requestAnimationFrame(() => setTimeout(start));
}

/** An error counts only from the video or its <source> (a related title's broken cover is not the video's). */
function onEvent(event: Event): void {
  const target = event.target as HTMLVideoElement | null;
  const tag = target?.tagName;
  // On `playing`, once the first frame is on screen: Chromium shows it only after a main-thread
  // frame, which the page's modules (evaluation, hydration) would hold up by up to ~0.6 s.
  if (event.type === "playing" && target?.requestVideoFrameCallback) target.requestVideoFrameCallback(() => setTimeout(start));
  // The visitor's first touch, click or key: its own frame (the early controls' answer) goes first.
  else if (event.type !== "error" && event.type !== "playing" && event.type !== EARLY_HLS_EVENT) startAfterFrame();
  else if (event.type !== "error" || tag === "VIDEO" || (tag === "SOURCE" && !hlsFirst)) start();
}

const waitsForTheVideo = videoFirst || hlsFirst;
// Media events do not bubble: the document sees them only while capturing.
if (waitsForTheVideo)
  for (const type of [hlsFirst ? EARLY_HLS_EVENT : "playing", "error", "pointerdown", "touchstart", "keydown"])
    document.addEventListener(type, onEvent, { capture: true, passive: true });
// The early controls after those listeners: on the document they keep some of a tap's events from React, not from this script.
installEarlyControls();
if (!waitsForTheVideo) start();
else if (hlsFirst) {
  addModule(window.__ASSETS__.hlsStart![0]);
  setTimeout(start, HLS_SCRIPTS_WAIT_MAX_MS);
} else {
  const video = document.querySelector("video");
  if (video && (video.error || (!video.paused && video.readyState >= 3))) start();
  else setTimeout(start, SCRIPTS_WAIT_MAX_MS);
}
