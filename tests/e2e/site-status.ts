import { readFile } from "node:fs/promises";

/** How the e2e site's start is going, as the global setup (tests/e2e/global-setup.ts) writes it. */
export type SiteStatus = { state: "starting" } | { state: "ready" } | { state: "failed"; error: string };

/** Packing the media of a fresh clone on a busy 2-core machine takes a few minutes; far more means something hangs. */
const START_TIMEOUT_MS = 20 * 60_000;

/** Resolves once the site answers; throws the start's own error when it failed. */
export async function waitForSite(statusFile: string, timeoutMs = START_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = JSON.parse(await readFile(statusFile, "utf8")) as SiteStatus;
    if (status.state === "ready") return;
    if (status.state === "failed") throw new Error(`the e2e site did not start:\n${status.error}`);
    if (Date.now() > deadline) throw new Error(`the e2e site did not start within ${timeoutMs / 60_000} min`);
    // Another process writes the status: there is no event to await across processes but the file.
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
