import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { TestProject } from "vitest/node";

const root = path.resolve(import.meta.dirname, "../..");
/** Port of the site under test (not 8787, so a running `npm start` does not clash). */
const PORT = Number(process.env.E2E_PORT ?? 8791);

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
  }
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the site did not answer at ${url} within ${timeoutMs} ms`);
}

/**
 * Serves the built site with `wrangler dev` (the same command as `npm start`)
 * on its own port, with the local bindings prepared by scripts/prepare-local.mjs.
 */
export default async function setup(project: TestProject) {
  const { prepareLocal } = await import(path.join(root, "scripts/prepare-local.mjs"));
  await prepareLocal({ log: () => {} });
  const child = spawn(
    process.execPath,
    [path.join(root, "node_modules/wrangler/bin/wrangler.js"), "dev", "--port", String(PORT), "--ip", "127.0.0.1", "--log-level", "warn", "--show-interactive-dev-session=false"],
    { cwd: root, env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", FORCE_COLOR: "0" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const baseURL = `http://127.0.0.1:${PORT}`;
  try {
    await waitForServer(baseURL + "/robots.txt", child, 60_000);
  } catch (error) {
    child.kill("SIGTERM");
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  project.provide("baseURL", baseURL);
  return async () => {
    child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
  };
}
