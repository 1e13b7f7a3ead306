/**
 * The 管理后台's own client files (docs/decisions/0072-admin-app.md): a second Vite input,
 * client/admin/admin.ts with its stylesheet, which no viewer page loads. The build writes their
 * hashed names to dist/admin-assets.js (the worker imports it as "virtual:admin-assets", aliased
 * in wrangler.toml and vitest.config.ts); `vite` (dev) serves a virtual module with the source.
 */
import fs from "node:fs";
import path from "node:path";
import type { Manifest, Plugin } from "vite";

export const ADMIN_ENTRY = "client/admin/admin.ts";

export interface AdminAssets {
  scripts: string[];
  styles: string[];
}

export function adminAssets(root: string): Plugin {
  const id = "virtual:admin-assets";
  return {
    name: "admin-assets",
    resolveId(source) {
      return source === id ? "\0" + id : undefined;
    },
    load(resolved) {
      if (resolved !== "\0" + id) return undefined;
      const dev: AdminAssets = { scripts: ["/@vite/client", "/" + ADMIN_ENTRY], styles: [] };
      return `export default ${JSON.stringify(dev)};`;
    },
    writeBundle(options) {
      const outDir = options.dir ?? path.join(root, "dist/client");
      const manifest = JSON.parse(fs.readFileSync(path.join(outDir, ".vite/manifest.json"), "utf8")) as Manifest;
      const entry = manifest[ADMIN_ENTRY];
      if (!entry) throw new Error(`${ADMIN_ENTRY} missing from the Vite manifest`);
      const assets: AdminAssets = { scripts: ["/" + entry.file], styles: (entry.css ?? []).map((file) => "/" + file) };
      fs.writeFileSync(path.join(root, "dist/admin-assets.js"), `export default ${JSON.stringify(assets, null, 2)};\n`);
    },
  };
}
