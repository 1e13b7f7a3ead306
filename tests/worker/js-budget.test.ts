import { env, SELF } from "cloudflare:test";
import { gzipSync } from "node:zlib";
import clientAssets from "virtual:client-assets";
import { describe, expect, it } from "vitest";
import { scriptsBeforeHydration as scriptsBeforeInteractive } from "./helpers/page-scripts";
import { BASE } from "./helpers/visitor";
import { MISSING_SAMPLES, PAGE_SAMPLES } from "../route-samples";

/**
 * The JavaScript budget (docs/performance.md, budgets): what a page makes the browser fetch before
 * it can hydrate — its module script and every modulepreload in its HTML, or on /video the files
 * its inline boot script starts (helpers/page-scripts.ts) — is at most 125 KB
 * gzip (-9, as `npm run bench` counts it) on every route. Chunks loaded after hydration (the
 * player island, hls.js, the 弹幕 layer, parsers) are not in it; on /video the player's server
 * HTML plays before its chunk arrives.
 */

const BUDGET_BYTES = 125 * 1024;

/** Every declared route's first page, and its first 404 (tests/route-samples.ts). */
const samples = [...PAGE_SAMPLES, ...MISSING_SAMPLES];
const ROUTES = [...new Set(samples.map((sample) => sample.route))].flatMap((route) => samples.find((sample) => sample.route === route)?.url ?? []);

const gzipSizes = new Map<string, number>();
async function gzipSize(file: string): Promise<number> {
  let size = gzipSizes.get(file);
  if (size === undefined) {
    const res = await env.ASSETS.fetch(BASE + file);
    expect(res.status, file).toBe(200);
    size = gzipSync(new Uint8Array(await res.arrayBuffer()), { level: 9 }).length;
    gzipSizes.set(file, size);
  }
  return size;
}

describe("JavaScript before a page is interactive", () => {
  it.each(ROUTES)("%s stays within 125 KB gzip", async (route) => {
    const res = await SELF.fetch(BASE + route);
    const files = scriptsBeforeInteractive(await res.text());
    expect(files).toEqual(expect.arrayContaining(clientAssets.scripts));
    let total = 0;
    for (const file of files) total += await gzipSize(file);
    expect(total, `${route}: ${(total / 1024).toFixed(1)} KB gzip of ${files.join(", ")}`).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it("/video renders the whole player on the server but does not preload its chunk (a lazy island)", async () => {
    const res = await SELF.fetch(BASE + "/video/video_001");
    const html = await res.text();
    const player = Object.keys(clientAssets.lazy).find((m) => m.endsWith("shared/player/VideoPlayer.tsx"));
    expect(player, "the player is its own chunk").toBeDefined();
    expect(scriptsBeforeInteractive(html)).not.toContain(clientAssets.lazy[player as string][0]);
    // The server HTML has the element, its stream and the controls: it plays before the chunk arrives.
    expect(html).toMatch(/<video[^>]*\sautoPlay=""[^>]*\smuted=""/i);
    expect(html).toMatch(/<source src="\/stream\/1\/master.m3u8" type="application\/vnd.apple.mpegurl"\/?>/);
    expect(html).toContain('aria-label="播放进度"');
  });
});
