import { readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { E2E_MEDIA_ENV, E2E_STATE } from "./site-env";
import type { SiteStatus } from "./site-status";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    /** Where the global setup writes how the site's start is going (tests/e2e/site-status.ts). */
    siteStatusFile: string;
  }
}

/**
 * Serves the built site with `wrangler dev` (the same command as `npm start`) on a free port
 * ($E2E_PORT when set), with its own local state, fresh for every run, and media prepared
 * (tests/e2e/site-env.ts, scripts/local-site.mjs).
 * A fixed port would let a run talk to another checkout's site, or to a running `npm start`.
 *
 * The start is not awaited here: global setups run before any test file of any project, and on a
 * fresh clone packing and seeding the media take ~40 s, during which the unit and worker tests run (the e2e
 * files run last, in their own sequential group). Each e2e file waits for the site in its setup
 * file (tests/e2e/site-ready.ts), which reads the status this setup writes.
 */
/** Whether a process still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves when the packer that `npm test` started has finished, or died, either way: the site's
 * preparation packs whatever is missing, and fails with its own error if it cannot.
 */
async function mediaPacked(statusFile: string | undefined, pid: number): Promise<void> {
  if (!statusFile) return;
  for (;;) {
    const status = JSON.parse(await readFile(statusFile, "utf8").catch(() => '{"state":"gone"}')) as { state: string };
    if (status.state !== "packing" || !(pid > 0) || !alive(pid)) return;
    // Another process writes the status: there is no event to await across processes but the file.
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Every run starts from fresh state: the accounts, sessions, rate-limit counters, plays, 弹幕
 * rooms and cached pages of earlier runs are removed, so no test can pass (or fail) on what an
 * earlier run left. The local R2 bucket alone is kept: it holds nothing but the seeded media,
 * and the seeding brings it in line with the packs anyway (it puts what changed and deletes what
 * is stale), without putting some 5,000 unchanged objects again on every run.
 */
async function freshState(dir: string): Promise<void> {
  const persisted = path.join(dir, "v3");
  const top = await readdir(dir).catch(() => []);
  for (const name of top) if (name !== "v3") await rm(path.join(dir, name), { recursive: true, force: true });
  for (const name of await readdir(persisted).catch(() => [])) if (name !== "r2") await rm(path.join(persisted, name), { recursive: true, force: true });
}

export default async function setup(project: TestProject) {
  // Before the scripts load: scripts/media/titles.ts reads them when imported.
  Object.assign(process.env, E2E_MEDIA_ENV);
  const { freePort, startLocalSite } = await import("../../scripts/local-site.mjs");
  const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freePort();
  const statusFile = path.join(os.tmpdir(), `yingshi-e2e-site-${process.pid}-${port}.json`);
  // Written whole, then renamed into place: a reader polling the file (tests/e2e/site-ready.ts)
  // never sees it empty or half written (that failed an e2e file with "Unexpected end of JSON input").
  const write = async (status: SiteStatus) => {
    await writeFile(`${statusFile}.tmp`, JSON.stringify(status));
    await rename(`${statusFile}.tmp`, statusFile);
  };
  await write({ state: "starting" });
  project.provide("baseURL", `http://127.0.0.1:${port}`);
  project.provide("siteStatusFile", statusFile);
  // `npm test` packs the media from its start (tests/e2e/pack-media.ts): wait for it, then seed.
  const site = Promise.all([freshState(E2E_STATE), mediaPacked(process.env.E2E_MEDIA_STATUS, Number(process.env.E2E_MEDIA_PACKER_PID))])
    .then(() => startLocalSite({ port, persistTo: E2E_STATE, prepare: true }))
    .then(
      async (started) => {
        await write({ state: "ready" });
        return started;
      },
      async (error: unknown) => {
        await write({ state: "failed", error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
        return null;
      },
    );
  return async () => {
    await (await site)?.stop();
    await rm(statusFile, { force: true });
  };
}
