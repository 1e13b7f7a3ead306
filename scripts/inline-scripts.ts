/**
 * The inline scripts of a player page (client/inline/page-head.ts, page-boot.ts), compiled from
 * TypeScript by esbuild (Vite's own) into minified scripts, each split where the server writes
 * in the page's files (the free name PAGE_FILES; shared/player/page-scripts.ts). The Vite build
 * writes them as dist/inline-scripts.js (the worker's `virtual:inline-scripts`, wrangler.toml);
 * `vite` (dev) and the unit tests get the same module from the plugin.
 */
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import type { Plugin } from "vite";

/** The module the worker and shared/player/page-scripts.ts import. */
export const INLINE_SCRIPTS_MODULE = "virtual:inline-scripts";

const SOURCES = { head: "client/inline/page-head.ts", boot: "client/inline/page-boot.ts" } as const;

/** The name each script reads its files from: the server writes them in its place. */
const PLACEHOLDER = /\bPAGE_FILES\b/;

/** A compiled script: the code before the files, the code after them. */
export type InlineScript = readonly [before: string, after: string];

interface Compiled {
  /** The module's source (dist/inline-scripts.js). */
  module: string;
  /** Every file the scripts were compiled from. */
  inputs: string[];
}

async function compileOne(root: string, source: string): Promise<{ script: InlineScript; inputs: string[] }> {
  const result = await build({
    entryPoints: [path.join(root, source)],
    bundle: true,
    write: false,
    minify: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    legalComments: "none",
    // The page is UTF-8: Chinese labels as they are, not six-byte \u escapes.
    charset: "utf8",
    metafile: true,
    logLevel: "silent",
    // Not the project's tsconfig: its strict mode would add a "use strict" the script does not need.
    tsconfigRaw: {},
  });
  const code = result.outputFiles[0].text.trim().replace(/;$/, "");
  const parts = code.split(PLACEHOLDER);
  if (parts.length !== 2) throw new Error(`${source}: the compiled script must read PAGE_FILES exactly once (found ${parts.length - 1})`);
  return { script: [parts[0], parts[1]], inputs: Object.keys(result.metafile.inputs).map((file) => path.resolve(root, file)) };
}

/** Compiles both scripts into the module's source. */
export async function compileInlineScripts(root: string): Promise<Compiled> {
  const entries = await Promise.all(Object.entries(SOURCES).map(async ([name, source]) => [name, await compileOne(root, source)] as const));
  const module = entries.map(([name, { script }]) => `export const ${name} = ${JSON.stringify(script)};\n`).join("");
  return { module, inputs: [...new Set(entries.flatMap(([, { inputs }]) => inputs))] };
}

/**
 * Serves `virtual:inline-scripts` (dev server, unit tests, the client build) and, in a build,
 * writes it as dist/inline-scripts.js for the worker.
 */
export function inlineScripts(root: string): Plugin {
  const resolved = "\0" + INLINE_SCRIPTS_MODULE;
  let compiled: Promise<Compiled> | null = null;
  return {
    name: "inline-scripts",
    buildStart() {
      compiled = null;
    },
    resolveId: {
      filter: { id: /^virtual:inline-scripts$/ },
      handler: () => resolved,
    },
    load: {
      filter: { id: /^\0virtual:inline-scripts$/ },
      async handler() {
        compiled ??= compileInlineScripts(root);
        const { module, inputs } = await compiled;
        for (const input of inputs) this.addWatchFile(input);
        return module;
      },
    },
    async writeBundle() {
      compiled ??= compileInlineScripts(root);
      fs.writeFileSync(path.join(root, "dist/inline-scripts.js"), (await compiled).module);
    },
  };
}
