import fs from "node:fs";
import path from "node:path";
import devServer from "@hono/vite-dev-server";
import cloudflareAdapter from "@hono/vite-dev-server/cloudflare";
import { spawnSync } from "node:child_process";
import { defineConfig, type Manifest, type Plugin } from "vite";
import { searchKeysCurrent } from "./scripts/search-keys-inputs.mjs";
import { checkCatalogueFile, checkReport, CATALOGUE_FILE } from "./scripts/catalogue/check.ts";
import { ADMIN_ENTRY, adminAssets } from "./scripts/admin/vite-admin-assets.ts";
import { inlineScripts } from "./scripts/inline-scripts.ts";

const root = import.meta.dirname;
const CLIENT_ENTRY = "client/entry.tsx";
/** The early start of hls.js on a player page, before the page's own modules (docs/decisions/0058-early-hls-start.md). */
const HLS_START_ENTRY = "client/hls-start-boot.ts";

/** A route declaration's module (shared/routes/{id}.route.ts): the build lists its page's chunks under its id. */
const ROUTE_MODULE = /\/shared\/routes\/([^/]+)\.route\.tsx?$/;

/**
 * The files a manifest entry needs: the chunks it imports, each once, depth first, leaving out
 * those in `known` (already on the page); with `self`, the entry's own chunk first.
 */
function importedFiles(manifest: Manifest, key: string, known: ReadonlySet<string>, self: boolean): string[] {
  const files: string[] = self ? ["/" + manifest[key].file] : [];
  const walk = (k: string) => {
    for (const imp of manifest[k]?.imports ?? []) {
      const file = "/" + manifest[imp].file;
      if (imp === CLIENT_ENTRY || known.has(file) || files.includes(file)) continue;
      files.push(file);
      walk(imp);
    }
  };
  walk(key);
  return files;
}

/**
 * The worker learns the hashed names of the client bundle from this module:
 * the build writes dist/client-assets.js from the Vite manifest; `vite` (dev)
 * serves a virtual module that points at the unbundled entry.
 */
function clientAssets(): Plugin {
  const id = "virtual:client-assets";
  return {
    name: "client-assets",
    resolveId(source) {
      return source === id ? "\0" + id : undefined;
    },
    load(resolved) {
      if (resolved !== "\0" + id) return undefined;
      const dev = { scripts: ["/@vite/client", "/" + CLIENT_ENTRY], styles: [], preloads: [], lazy: {}, routes: {}, hlsStart: ["/" + HLS_START_ENTRY] };
      return `export default ${JSON.stringify(dev)};`;
    },
    writeBundle(options) {
      const outDir = options.dir ?? path.join(root, "dist/client");
      const manifestPath = path.join(outDir, ".vite/manifest.json");
      const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8")) as Manifest;
      const entry = manifest[CLIENT_ENTRY];
      if (!entry) throw new Error(`${CLIENT_ENTRY} missing from the Vite manifest`);
      const preloads = importedFiles(manifest, CLIENT_ENTRY, new Set(), false);
      // Lazily loaded modules: their chunk plus what it imports beyond the entry's own chunks.
      const entryFiles = new Set(preloads);
      const lazy: Record<string, string[]> = {};
      for (const [key, chunk] of Object.entries(manifest)) {
        if (chunk.isDynamicEntry) lazy[key] = importedFiles(manifest, key, entryFiles, true);
      }
      // Each declared route's page: the chunks of what its declaration imports lazily (shared/routes/).
      const routes: Record<string, string[]> = {};
      for (const moduleId of this.getModuleIds()) {
        const routeId = ROUTE_MODULE.exec(moduleId)?.[1];
        if (!routeId) continue;
        const pages = (this.getModuleInfo(moduleId)?.dynamicallyImportedIds ?? []).map((dynamic) => path.relative(root, dynamic).split(path.sep).join("/"));
        routes[routeId] = [...new Set(pages.flatMap((page) => lazy[page] ?? []))];
      }
      // The early hls.js start: its chunk first, then the chunks it imports (hls.js itself is lazy[hls.js]).
      if (!manifest[HLS_START_ENTRY]) throw new Error(`${HLS_START_ENTRY} missing from the Vite manifest`);
      const hlsStart = importedFiles(manifest, HLS_START_ENTRY, new Set(), true);
      const assets = {
        scripts: ["/" + entry.file],
        styles: (entry.css ?? []).map((file) => "/" + file),
        preloads,
        lazy,
        routes,
        hlsStart,
      };
      fs.writeFileSync(path.join(root, "dist/client-assets.js"), `export default ${JSON.stringify(assets, null, 2)};\n`);
    },
  };
}

/** The build stops on any problem of catalogue/titles.json (`npm run catalogue -- check` prints the same). */
function catalogueCheck(): Plugin {
  return {
    name: "catalogue-check",
    apply: "build",
    buildStart() {
      const result = checkCatalogueFile(CATALOGUE_FILE);
      if (!result.ok) this.error(checkReport(result, CATALOGUE_FILE));
    },
  };
}

/**
 * Search keys (pinyin of the titles, the traditional→simplified table) are computed
 * at build time: the build rewrites shared/search/generated/ when their inputs changed
 * (the catalogue, the folding rules, the generator, the libraries).
 */
function searchKeys(): Plugin {
  return {
    name: "search-keys",
    apply: "build",
    buildStart() {
      if (searchKeysCurrent(root)) return;
      // A separate process (tsx): the generator imports the catalogue's TypeScript sources.
      const run = spawnSync(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), path.join(root, "scripts/search-keys.ts")], {
        cwd: root,
        encoding: "utf8",
      });
      if (run.status !== 0) this.error(`search keys: ${run.stderr || run.stdout}`);
      if (run.stdout.includes("wrote")) this.info(run.stdout.trim());
    },
  };
}

export default defineConfig(({ command }) => ({
  publicDir: "public",
  oxc: { jsx: { runtime: "automatic" } },
  build: {
    outDir: "dist/client",
    emptyOutDir: true,
    manifest: true,
    target: "es2022",
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: [path.join(root, CLIENT_ENTRY), path.join(root, HLS_START_ENTRY), path.join(root, ADMIN_ENTRY)],
      // React Router marks its modules "use client" (for RSC); in a plain client bundle that is noise.
      onwarn(warning, warn) {
        if (warning.code === "MODULE_LEVEL_DIRECTIVE") return;
        warn(warning);
      },
    },
  },
  // The 上传视频 packer's Web Worker (client/admin/packer/) as an ES module with chunks of its own: what it
  // needs only sometimes (the WASM AAC encoder, docs/decisions/0082-browser-upload-audio.md) loads when used.
  worker: { format: "es" as const },
  plugins: [
    catalogueCheck(),
    searchKeys(),
    clientAssets(),
    adminAssets(root),
    inlineScripts(root),
    ...(command === "serve"
      ? [
          devServer({
            entry: "worker/index.ts",
            adapter: cloudflareAdapter,
            exclude: [/^\/(client|shared|@vite|@id|@fs|node_modules)\/.*/, /^\/@react-refresh/, /\?(import|url|raw)/],
          }),
        ]
      : []),
  ],
}));
