import { env, SELF } from "cloudflare:test";
import clientAssets from "virtual:client-assets";
import { describe, expect, it } from "vitest";
import { SITE_ROUTES } from "../../shared/routes/site-routes";
import { PAGE_SAMPLES } from "../route-samples";
import { bootScriptOf, inlineScripts, scriptsBeforeHydration } from "./helpers/page-scripts";
import { BASE } from "./helpers/visitor";

/**
 * The build lists each declared route's page chunks under its id (clientAssets.routes, written by
 * vite.config.ts from what shared/routes/{id}.route.ts imports lazily); the worker preloads them.
 * A renamed or moved page must not silently lose its preload.
 */

/** The declared routes that have a page component (all but the catch-all). */
const withPage = SITE_ROUTES.filter((route) => route.page !== null);

describe("modulepreload links of the declared routes", () => {
  it("every route with a page has its chunks in the built manifest, its page's chunk first", () => {
    expect(withPage.length).toBeGreaterThanOrEqual(7);
    for (const { id } of withPage) {
      const files = clientAssets.routes[id];
      expect(files, `${id} missing from dist/client-assets.js`).toBeDefined();
      expect(files.length).toBeGreaterThan(0);
      expect(files[0]).toMatch(/^\/assets\/.+\.js$/);
    }
  });

  it("every preloaded file of every route is in the built assets", async () => {
    const files = new Set([...clientAssets.preloads, ...clientAssets.scripts, ...withPage.flatMap(({ id }) => clientAssets.routes[id])]);
    for (const file of files) {
      // The static assets binding (dist/client, wrangler.toml [assets]): what serves them in front of the worker.
      const res = await env.ASSETS.fetch(BASE + file);
      await res.arrayBuffer();
      expect(res.status, file).toBe(200);
      expect(res.headers.get("Content-Type"), file).toMatch(/javascript/);
    }
  });

  it("each page preloads the chunks of the route it matched, not other pages' chunks", async () => {
    for (const { url, route } of PAGE_SAMPLES) {
      const res = await SELF.fetch(BASE + url);
      expect(res.status, url).toBe(200);
      const preloads = scriptsBeforeHydration(await res.text());
      expect(preloads, url).toEqual(expect.arrayContaining(clientAssets.routes[route.id]));
      for (const other of withPage) {
        if (other.id !== route.id) expect(preloads, `${url} preloads ${other.id}`).not.toContain(clientAssets.routes[other.id][0]);
      }
    }
  });
});

describe("the scripts of pages that play a stream", () => {
  const hlsChunk = clientAssets.lazy["node_modules/hls.js/dist/hls.light.mjs"]?.[0];
  const playerChunk = clientAssets.lazy["shared/player/VideoPlayer.tsx"]?.[0];
  const startScripts = (html: string) => inlineScripts(html).filter((s) => s.body.includes("modulepreload"));

  it("the detail page starts its modules from inline scripts carrying the response's CSP nonce, not from its HTML", async () => {
    expect(hlsChunk).toMatch(/^\/assets\/hls\.light-.+\.js$/);
    for (const path of ["/video/video_001", "/video/video_003/2"]) {
      const res = await SELF.fetch(BASE + path);
      const html = await res.text();
      const headEnd = html.indexOf("</head>");
      const head = html.slice(0, headEnd);
      const nonce = /'nonce-([^']+)'/.exec(res.headers.get("Content-Security-Policy") ?? "")?.[1];
      expect(nonce, path).toBeTruthy();
      const scripts = startScripts(html);
      expect(scripts, path).toHaveLength(2);
      for (const script of scripts) expect(script.nonce).toBe(nonce);
      // The head script (before the stylesheet: an inline script after it would wait for it) names
      // the early hls.js start and hls.js for the hls.js path, not the player (it hydrates later);
      // the boot script comes after the hydration data and reads the hls.js path's files from it.
      const [headScript, bootScript] = scripts;
      expect(head.indexOf(headScript.body)).toBeGreaterThan(0);
      expect(head.indexOf(headScript.body)).toBeLessThan(head.indexOf('rel="stylesheet"'));
      expect(headScript.body).toContain(JSON.stringify(hlsChunk));
      expect(headScript.body).toContain(JSON.stringify(clientAssets.hlsStart[0]));
      expect(headScript.body).not.toContain(JSON.stringify(playerChunk));
      const boot = bootScriptOf(bootScript.body);
      expect(boot, path).not.toBeNull();
      expect(bootScript.body.indexOf(boot ?? "")).toBeGreaterThan(bootScript.body.indexOf("window.__ASSETS__="));
      expect(boot).not.toContain(JSON.stringify(hlsChunk));
      expect(boot).not.toContain(JSON.stringify(clientAssets.hlsStart[0]));
      // No module script or modulepreload in the HTML itself: the browser fetches none before the scripts decide.
      expect(html).not.toMatch(/<script[^>]*type="module"/);
      expect(html).not.toContain('<link rel="modulepreload"');
      // What every browser fetches before hydrating: the entry and the page's chunks, never hls.js or the player.
      const before = scriptsBeforeHydration(html);
      expect(before).toEqual(expect.arrayContaining([...clientAssets.scripts, ...clientAssets.routes.video]));
      expect(before).not.toContain(hlsChunk);
      expect(before).not.toContain(playerChunk);
    }
  });

  it("pages without a player, and a detail page of an unknown title, load theirs from the HTML", async () => {
    for (const path of ["/", "/category/all", "/search?q=" + encodeURIComponent("爱"), "/video/video_999"]) {
      const html = await (await SELF.fetch(BASE + path)).text();
      expect(startScripts(html), path).toEqual([]);
      expect(html, path).not.toContain(hlsChunk);
      expect(html, path).toMatch(new RegExp(`<script type="module" src="${clientAssets.scripts[0]}"`));
    }
  });
});
