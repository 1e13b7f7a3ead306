/**
 * The inline script in the <head> of a page with a player (shared/Document.tsx), before the
 * stylesheet: the bundler compiles it into a minified script (scripts/inline-scripts.ts), and the
 * server writes the page's files in for PAGE_FILES (shared/player/page-scripts.ts). It decides
 * the engine as the player does (chooseEngine, browserCapabilities), leaves it in
 * window[ENGINE_FLAG] for the player (pageEngine), then:
 * - "native" (the browser plays the <video>'s HLS source itself, from the server's HTML): the
 *   page's JavaScript is not on the way to the first frame, and on a slow link its ~140 KB would
 *   go before the video's first segments (scripts have a higher priority than media), so it
 *   only sets the flag for the boot script (page-boot.ts), which fetches it after the first frame
 *   (docs/decisions/0054-video-first-scripts.md);
 * - "hlsjs": only the early start of hls.js and hls.js itself are on the way to the first frame:
 *   it preloads those and sets the flag for the boot script, which starts them and fetches the
 *   page's modules once the video has a head start (docs/decisions/0058-early-hls-start.md); in
 *   a browser that could play HLS itself (a fast link) it also keeps that browser from loading
 *   the server's HLS <source> (keepNativeOffSource, docs/decisions/0059-engine-by-link.md);
 * - "progressive": it preloads the page's modules now;
 * - "native" on a page in a 一起看 room (`?room=`): the room, not the page, says where the video
 *   starts, so the video waits for it: the head script takes the src off the server's <source>
 *   (keepNativeOffSource) and preloads the page's modules now; the player loads the rendition the
 *   link carries at the room's position once the room has answered (one load instead of a start
 *   at 0:00, a switch of rendition and a seek: shared/player/stream-engine.ts, decision 0100).
 */
import { chooseEngine, ENGINE_FLAG, HLS_FIRST_FLAG, HLS_MIME, VIDEO_FIRST_FLAG, type HeadScriptFiles } from "../../shared/playback/engine-choice";
import { browserCapabilities } from "../../shared/player/page-engine";
import { inRoom } from "../../shared/player/watch/in-room";
import { preload } from "./dom";

/** Written in by the server: the hls.js path's files, and the page's modules. */
declare const PAGE_FILES: HeadScriptFiles;

/**
 * Where hls.js plays in a browser that could play HLS itself (a fast link, decision 0059): the
 * server's <video> still names the master playlist in a <source> (the server cannot know the
 * link), and the browser would start loading it natively until hls.js takes the element over,
 * its requests sharing the link with hls.js's own. (Likewise where the browser's own HLS waits for
 * a 一起看 room's position.) A MutationObserver takes the `src` off that
 * <source> as the parser inserts it: Chromium starts a media element's resource selection from
 * a task posted when the <source> is inserted, after the microtask that delivers this
 * observer's records, so it finds no source to load. (Attributes are not compared when React
 * hydrates; the element stays as the server rendered it otherwise.)
 */
function keepNativeOffSource(): void {
  const observer = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) {
        const source = node as HTMLSourceElement;
        if (source.tagName === "SOURCE" && source.type === HLS_MIME && (source.parentNode as Element | null)?.hasAttribute("data-stream")) {
          source.removeAttribute("src");
          observer.disconnect();
        }
      }
  });
  observer.observe(document, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", () => observer.disconnect());
}

const [hlsStart, modules] = PAGE_FILES;
const flags = window as unknown as Record<string, unknown>;
const caps = browserCapabilities();
const engine = chooseEngine(caps, new URLSearchParams(location.search).get("engine"));
flags[ENGINE_FLAG] = engine;
if (engine === "native" && inRoom()) {
  keepNativeOffSource();
  preload(modules);
} else if (engine === "native") flags[VIDEO_FIRST_FLAG] = true;
else if (engine === "hlsjs") {
  if (caps.nativeHls) keepNativeOffSource();
  flags[HLS_FIRST_FLAG] = true;
  preload(hlsStart);
} else preload(modules);
