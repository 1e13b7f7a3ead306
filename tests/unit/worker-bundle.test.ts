import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleSize, bundleWorker, FREE_PLAN_GZIP_LIMIT_BYTES } from "../../scripts/worker-bundle.mjs";

/**
 * The worker as a deploy uploads it (`wrangler deploy --dry-run`, offline; needs the client build
 * that `npm test` runs first) stays under the Workers free plan's 3 MiB gzip limit.
 */
const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "yingshi-worker-bundle-"));
let bundle: ReturnType<typeof bundleWorker>;

// One bundle for every test of the file (each test can also run alone).
beforeAll(() => {
  bundle = bundleWorker(outdir);
}, 120_000);

afterAll(() => {
  fs.rmSync(outdir, { recursive: true, force: true });
});

/** The bundled worker's code (the bundle must have succeeded). */
function bundledCode(): string {
  expect(bundle.ok, bundle.output).toBe(true);
  return fs.readFileSync(path.join(outdir, "index.js"), "utf8");
}

describe("the deployed worker's size", () => {
  it("bundles offline and stays under the free plan's limit", () => {
    expect(bundle.ok, bundle.output).toBe(true);
    const size = bundleSize(outdir);
    expect(size.files).toContain("index.js");
    // A real bundle: React, React Router, Hono and the site (not an empty or failed build).
    expect(size.bytes).toBeGreaterThan(500 * 1024);
    expect(size.gzipBytes).toBeLessThan(FREE_PLAN_GZIP_LIMIT_BYTES);
  });

  it("gives React's streaming renderer the short-string TextEncoder (wrangler.toml's util alias)", () => {
    // Without the alias the renderer would take Node's util, one call into the runtime per piece
    // of HTML (docs/decisions/0056).
    const code = bundledCode();
    expect(code).toContain("// worker/react-util.ts");
    expect(code).toContain("ShortStringTextEncoder");
    expect(code).not.toContain("node-built-in-modules:util");
  });

  it("leaves hls.js out: the browser-only module stands in for it (wrangler.toml's hls.js/light alias)", () => {
    // esbuild follows the player's dynamic import of hls.js into the worker, ~180 KiB gzip the
    // server never runs (docs/decisions/0057).
    const code = bundledCode();
    expect(code).toContain("// worker/browser-only-module.ts");
    expect(code).not.toMatch(/^\/\/ node_modules\/hls\.js\//m);
  });
});
