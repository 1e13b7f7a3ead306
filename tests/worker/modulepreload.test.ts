import { env, SELF } from "cloudflare:test";
import type { RouteObject } from "react-router";
import clientAssets from "virtual:client-assets";
import { describe, expect, it } from "vitest";
import { catalogueLoaders } from "../../worker/catalogue/loaders";
import { createRoutes, type LazyHandle } from "../../shared/routes";
import { bootScriptOf, inlineScripts, scriptsBeforeHydration } from "./helpers/page-scripts";
import { BASE } from "./helpers/visitor";

/**
 * Lazy routes name their page's source file (`handle.module` in shared/routes.tsx); the worker
 * looks that name up in the build's manifest (dist/client-assets.js, written by vite.config.ts)
 * to preload the page's chunk. A renamed or moved page must not silently lose its preload.
 */

function lazyModules(routes: RouteObject[]): string[] {
  return routes.flatMap((route) => [...(typeof route.lazy === "function" ? [(route.handle as LazyHandle).module] : []), ...lazyModules(route.children ?? [])]);
}

// Only the route table's shape matters here: the loaders never run.
const routes = createRoutes({
  rootLoader: () => null,
  sessionUser: () => null,
  catalogue: catalogueLoaders(() => {
    throw new Error("not called");
  }),
  ranking: () => {
    throw new Error("not called");
  },
});
const modules = [...new Set(lazyModules(routes))];

/** A page of each lazy route that an anonymous visitor can open (/profile redirects to /auth). */
const PAGES: Record<string, string[]> = {
  "shared/pages/HomePage.tsx": ["/"],
  "shared/pages/ListingPage.tsx": ["/category/all", "/latest", "/top-rated"],
  "shared/pages/SearchPage.tsx": ["/search?q=" + encodeURIComponent("爱")],
  "shared/pages/VideoPage.tsx": ["/video/video_001", "/video/video_003/2"],
  "shared/pages/InfoPage.tsx": ["/info/help"],
  "shared/pages/RankingPage.tsx": ["/ranking", "/ranking?period=week"],
  "shared/pages/AuthPage.tsx": ["/auth"],
  "shared/pages/ResetPasswordPage.tsx": ["/auth/reset"],
  "shared/pages/ConfirmLinkPage.tsx": ["/auth/confirm?token_hash=x&type=signup"],
};

describe("modulepreload links of the lazy routes", () => {
  it("every lazy route's module is in the built manifest, with its chunk first", () => {
    expect(modules.length).toBeGreaterThanOrEqual(7);
    for (const module of modules) {
      const files = clientAssets.lazy[module];
      expect(files, `${module} missing from dist/client-assets.js`).toBeDefined();
      expect(files.length).toBeGreaterThan(0);
      expect(files[0]).toMatch(/^\/assets\/.+\.js$/);
    }
  });

  it("every preloaded file of every lazy route is in the built assets", async () => {
    const files = new Set([...clientAssets.preloads, ...clientAssets.scripts, ...modules.flatMap((m) => clientAssets.lazy[m])]);
    for (const file of files) {
      // The static assets binding (dist/client, wrangler.toml [assets]): what serves them in front of the worker.
      const res = await env.ASSETS.fetch(BASE + file);
      await res.arrayBuffer();
      expect(res.status, file).toBe(200);
      expect(res.headers.get("Content-Type"), file).toMatch(/javascript/);
    }
  });

  it("each page preloads the chunks of the route it matched", async () => {
    expect(Object.keys(PAGES).sort()).toEqual(modules.filter((m) => m !== "shared/pages/ProfilePage.tsx").sort());
    for (const [module, paths] of Object.entries(PAGES)) {
      for (const path of paths) {
        const res = await SELF.fetch(BASE + path);
        expect(res.status, path).toBe(200);
        const preloads = scriptsBeforeHydration(await res.text());
        expect(preloads, path).toEqual(expect.arrayContaining(clientAssets.lazy[module]));
        // Not the chunks of other pages.
        const others = Object.keys(PAGES).filter((m) => m !== module && !(module === "shared/pages/ListingPage.tsx" && m === module));
        for (const other of others) expect(preloads, `${path} preloads ${other}`).not.toContain(clientAssets.lazy[other][0]);
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
      expect(before).toEqual(expect.arrayContaining([...clientAssets.scripts, ...clientAssets.lazy["shared/pages/VideoPage.tsx"]]));
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
