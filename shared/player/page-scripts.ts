/**
 * The inline scripts of a page with a player, with the page's files written in: compiled by the
 * bundler from client/inline/page-head.ts and page-boot.ts (scripts/inline-scripts.ts), which
 * say what they do and when the page's JavaScript loads (docs/decisions/0054-video-first-scripts.md,
 * 0058-early-hls-start.md).
 */
import { boot, head } from "virtual:inline-scripts";
import { serializeForScript } from "../hydration";
import type { BootScriptFiles, HeadScriptFiles, PageScripts } from "../playback/engine-choice";

/** The script in the <head> (shared/Document.tsx), before the stylesheet. */
export function pageHeadScript(page: PageScripts): string {
  const files: HeadScriptFiles = [page.hlsStart, [...page.scripts, ...page.preloads]];
  return head[0] + serializeForScript(files) + head[1];
}

/** The script after the hydration data (worker/ssr.tsx), which starts the page's modules. */
export function pageBootScript(page: Pick<PageScripts, "scripts" | "preloads">): string {
  const files: BootScriptFiles = [page.scripts, page.preloads];
  return boot[0] + serializeForScript(files) + boot[1];
}
