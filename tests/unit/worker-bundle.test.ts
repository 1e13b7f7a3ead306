import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundleSize, bundleWorker, FREE_PLAN_GZIP_LIMIT_BYTES } from "../../scripts/worker-bundle.mjs";

/**
 * The worker as a deploy uploads it (`wrangler deploy --dry-run`, offline; needs the client build
 * that `npm test` runs first) stays under the Workers free plan's 3 MiB gzip limit.
 */
const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "yingshi-worker-bundle-"));

afterAll(() => {
  fs.rmSync(outdir, { recursive: true, force: true });
});

describe("the deployed worker's size", () => {
  it("bundles offline and stays under the free plan's limit", { timeout: 120_000 }, () => {
    const bundle = bundleWorker(outdir);
    expect(bundle.ok, bundle.output).toBe(true);
    const size = bundleSize(outdir);
    expect(size.files).toContain("index.js");
    // A real bundle: React, React Router, Hono and the site (not an empty or failed build).
    expect(size.bytes).toBeGreaterThan(500 * 1024);
    expect(size.gzipBytes).toBeLessThan(FREE_PLAN_GZIP_LIMIT_BYTES);
  });
});
