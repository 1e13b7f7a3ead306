// @ts-check
/**
 * Starts the built site with `wrangler dev` on a loopback port (the same
 * server as `npm start`), after preparing the local bindings, and waits until
 * it answers. Used by the e2e tests, the benchmark and the load test.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { prepareLocal } from "./prepare-local.mjs";
import { waitForServer } from "./wait-for-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * A loopback port free right now (the system picks it), so test sites of several checkouts or
 * runs never answer each other's requests.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * @param {{ port: number, log?: (line: string) => void, vars?: Record<string, string>, inspectorPort?: number, persistTo?: string, prepare?: boolean, cwd?: string }} options
 *   inspectorPort: serve the worker isolate's devtools protocol on 127.0.0.1:<inspectorPort>
 *   persistTo: serve another local state directory, seeded by the caller (e.g. the video benchmark)
 *     unless `prepare` says to prepare it here (the e2e site's own state)
 *   prepare: pack, seed, migrate and import first (default: only for this checkout's default state)
 *   cwd: serve another checkout, built and with its local state prepared by the caller (a test's copy)
 * @returns {Promise<{ baseURL: string, pid: number | undefined, output: () => string, stop: () => Promise<void> }>}
 */
export async function startLocalSite({ port, log = () => {}, vars = {}, inspectorPort, persistTo, cwd = root, prepare = !persistTo && cwd === root }) {
  if (prepare) await prepareLocal({ log, persistPath: persistTo ? path.join(persistTo, "v3") : undefined });
  const persistArgs = persistTo ? ["--persist-to", persistTo] : [];
  const varArgs = Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const inspectorArgs = inspectorPort ? ["--inspector-port", String(inspectorPort), "--inspector-ip", "127.0.0.1"] : [];
  const child = spawn(
    process.execPath,
    [
      path.join(root, "node_modules/wrangler/bin/wrangler.js"),
      "dev",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--log-level",
      "warn",
      "--show-interactive-dev-session=false",
      ...persistArgs,
      ...inspectorArgs,
      ...varArgs,
    ],
    { cwd, env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", FORCE_COLOR: "0" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitForServer({ url: baseURL + "/robots.txt", child, output: () => output });
  } catch (error) {
    child.kill("SIGTERM");
    throw error;
  }
  return {
    baseURL,
    pid: child.pid,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((resolve) => {
        const timer = setTimeout(() => {
          child.kill("SIGKILL");
          resolve(undefined);
        }, 5000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
    },
  };
}
