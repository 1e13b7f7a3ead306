// @ts-check
/**
 * Waits until a server we started answers: used by scripts/local-site.mjs (e2e tests,
 * benchmark) and scripts/loadtest.mjs.
 */

/**
 * Polls `url` until it answers below 500; fails early if `child` exits, and after `timeoutMs`.
 * @param {{ url: string, child: import("node:child_process").ChildProcess, timeoutMs?: number, output?: () => string, name?: string }} options
 *   output: what the server printed so far (shown in the error); name: the server's name in the error
 * @returns {Promise<void>}
 */
export async function waitForServer({ url, child, timeoutMs = 90_000, output = () => "", name = "wrangler dev" }) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}\n${output()}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the site did not answer at ${url} within ${timeoutMs} ms\n${output()}`);
}
