// @ts-check
/**
 * The site as deployed, served locally in one workerd process: a frozen snapshot of the build
 * (the worker bundled as `wrangler deploy` bundles it, React's production build, the built
 * assets, the same wrangler.toml) started through Miniflare with the bindings wrangler derives
 * from wrangler.toml (vars, assets, R2, D1) — the runtime of `wrangler dev` without its dev proxy
 * and inspector proxy (docs/decisions/0008-load-test-through-miniflare.md). Used by the load test
 * (scripts/loadtest.mjs) and the video benchmark (scripts/bench-video/, through
 * scripts/production-site.mjs).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { childWorkerd } from "./workerd-processes.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * A frozen copy of the site to serve: the worker bundled as `wrangler deploy` bundles it
 * (--dry-run), the built assets (dist/client: build first), the same configuration. Builds and
 * edits in the working tree during a run (another terminal, other people) then cannot change or
 * restart the server. The caller removes the directory when done.
 * @param {NodeJS.ProcessEnv} env  the bundler's environment (NODE_ENV=production: React's production build)
 * @returns {string} the snapshot's directory
 */
export function siteSnapshot(env) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "yingshi-site-"));
  const bundle = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/wrangler/bin/wrangler.js"), "deploy", "--dry-run", "--outdir", path.join(dir, "worker")],
    {
      cwd: root,
      env,
      encoding: "utf8",
    },
  );
  if (bundle.status !== 0) throw new Error(`bundling the worker failed:\n${bundle.stdout}\n${bundle.stderr}`);
  fs.cpSync(path.join(root, "dist/client"), path.join(dir, "assets"), { recursive: true });
  const config = fs
    .readFileSync(path.join(root, "wrangler.toml"), "utf8")
    .replace(/^main\s*=.*$/m, 'main = "worker/index.js"\nno_bundle = true')
    .replace(/^directory\s*=.*$/m, 'directory = "./assets"')
    .replace(/^\[alias\][\s\S]*?(?=^\[)/m, "");
  fs.writeFileSync(path.join(dir, "wrangler.toml"), config);
  return dir;
}

/**
 * Serves the worker of `dir` (its wrangler.toml, main already bundled: siteSnapshot) in one
 * workerd process through Miniflare on 127.0.0.1:`port`, with the bindings wrangler derives from
 * wrangler.toml and the local state under `state` (a `--persist-to` directory; null: Miniflare's
 * default). `inspectorPort`: the worker isolate's devtools protocol there.
 * @param {string} dir
 * @param {{ port: number, state: string | null, inspectorPort?: number }} options
 */
export async function startMiniflare(dir, { port, state, inspectorPort }) {
  const { Miniflare } = await import("miniflare");
  // wrangler's own declarations do not resolve under this project's types: the part used here.
  const { unstable_getMiniflareWorkerOptions, unstable_readConfig } =
    /** @type {{ unstable_readConfig: (args: { config: string }) => { name?: string }, unstable_getMiniflareWorkerOptions: (config: { name?: string }) => { workerOptions: import("miniflare").WorkerOptions, main?: string } }} */ (
      /** @type {unknown} */ (await import("wrangler"))
    );
  const config = unstable_readConfig({ config: path.join(dir, "wrangler.toml") });
  const { workerOptions, main } = unstable_getMiniflareWorkerOptions(config);
  const script = path.resolve(dir, main ?? "worker.js");
  // The inspector names the isolate after the worker (core:user:<name>).
  const worker = config.name ?? "worker";
  const mf = new Miniflare({
    ...workerOptions,
    name: worker,
    rootPath: dir,
    modules: [{ type: "ESModule", path: script }],
    modulesRoot: path.dirname(script),
    host: "127.0.0.1",
    port,
    inspectorPort,
    defaultPersistRoot: state ? path.join(state, "v3") : undefined,
  });
  await mf.ready;
  const workerd = childWorkerd(process.pid);
  if (!workerd) throw new Error("Miniflare started no workerd process");
  return { mf, pid: workerd, worker };
}
