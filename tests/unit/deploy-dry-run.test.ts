import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * `npm run deploy -- --dry-run` offline (the client build of `npm test` is reused: --no-build):
 * what would be created, migrated, uploaded and deployed, and the worker's gzip size. Any request
 * to the network would go to a closed local port through the proxy variables and fail.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");

describe("deploy --dry-run", () => {
  it("prints the plan and the worker's size without an account or the network", { timeout: 240_000 }, () => {
    const env: NodeJS.ProcessEnv = { ...process.env, HTTPS_PROXY: "http://127.0.0.1:9", HTTP_PROXY: "http://127.0.0.1:9", WRANGLER_SEND_METRICS: "false" };
    delete env.CLOUDFLARE_API_TOKEN;
    const r = spawnSync(process.execPath, ["scripts/deploy.mjs", "--dry-run", "--no-build"], { cwd: ROOT, env, encoding: "utf8" });
    const out = r.stdout;
    expect(out, r.stderr).toMatch(/^worker: [\d.]+ KiB, gzip [\d.]+ KiB — [\d.]+ % of the free plan's 3072\.0 KiB$/m);
    expect(out).toContain("deploy --dry-run (offline: nothing created, uploaded or deployed)");
    expect(out).toContain("  create R2 bucket yingshi-media");
    expect(out).toContain("  create D1 database yingshi-accounts");
    expect(out).toContain("  set secret AUTH_JWT_SECRET (random)");
    expect(out).toMatch(/would apply D1 migrations remotely: 0001_accounts\.sql, /);
    expect(out).toMatch(/^media: \d+ media numbers referenced by the catalogue$/m);
    const upload = /would upload at most (\d+) files \(([\d.]+) MB\)/.exec(out);
    expect(upload).not.toBeNull();
    // The locally packed built-in titles (npm test packs at least the first one).
    expect(Number(upload![1])).toBeGreaterThan(10);
    expect(out).toMatch(/would deploy worker "yingshi" \(gzip [\d.]+ KiB\)/);
    // Offline the worker's secrets are unknown: no mail, so auto-confirm stays, said plainly.
    expect(out).toContain("would set, as if the worker had no secrets yet");
    expect(out).toMatch(/^ {2}accounts: NO WAY TO SEND MAIL/m);
    expect(out).toMatch(/^ {2}SITE_URL: /m);
    // Exit 1 exactly when referenced media is missing (packed neither here nor anywhere known).
    expect(r.status).toBe(/MISSING/.test(out) ? 1 : 0);
  });
});
