/**
 * Runs the project's pinned wrangler (node_modules) for the deploy: account listings, resource
 * creation, remote D1 migrations and the deploy itself. stdin is never a terminal, so wrangler
 * never prompts and never writes resource ids back into wrangler.toml.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { REPO_ROOT } from "../media/titles";

const WRANGLER = path.join(REPO_ROOT, "node_modules/wrangler/bin/wrangler.js");

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs wrangler; `echo` streams its output to this terminal as well. */
export function wrangler(args: readonly string[], options: { echo?: boolean } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRANGLER, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (options.echo) process.stdout.write(d);
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (options.echo) process.stderr.write(d);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** Runs wrangler and throws with its output when it fails. */
export async function wranglerOk(args: readonly string[], options: { echo?: boolean } = {}): Promise<string> {
  const r = await wrangler(args, options);
  if (r.code !== 0) throw new Error(`wrangler ${args.join(" ")} failed (exit ${r.code}):\n${(r.stderr || r.stdout).trim().slice(-2000)}`);
  return r.stdout;
}

/** The first JSON value (object or list) in wrangler's output. */
export function parseJsonOutput<T>(stdout: string): T {
  const start = stdout.search(/^[[{]/m);
  if (start < 0) throw new Error(`wrangler printed no JSON:\n${stdout.slice(0, 500)}`);
  return JSON.parse(stdout.slice(start)) as T;
}

/** Bucket names from `wrangler r2 bucket list` ("name:  yingshi-media" lines). */
export function parseBucketList(stdout: string): string[] {
  return [...stdout.matchAll(/^name:\s+(\S+)\s*$/gm)].map((m) => m[1]);
}

/** The worker's URLs from `wrangler deploy` output (workers.dev and custom domains), first the workers.dev one. */
export function parseDeployUrls(stdout: string): string[] {
  const urls = [...stdout.matchAll(/https:\/\/[a-z0-9.-]+\.[a-z]{2,}(?=\s|$)/gim)].map((m) => m[0]);
  return [...new Set(urls)].sort((a, b) => Number(b.endsWith(".workers.dev")) - Number(a.endsWith(".workers.dev")));
}

/** Whether wrangler is logged in (or has CLOUDFLARE_API_TOKEN). */
export async function loggedIn(): Promise<boolean> {
  const r = await wrangler(["whoami"]);
  return r.code === 0 && !/not authenticated/i.test(r.stdout + r.stderr);
}

export async function listBuckets(): Promise<string[]> {
  return parseBucketList(await wranglerOk(["r2", "bucket", "list"]));
}

export async function listDatabases(): Promise<Array<{ name: string; uuid: string }>> {
  return parseJsonOutput(await wranglerOk(["d1", "list", "--json"]));
}

/** The worker's secret names; none when the worker does not exist yet. */
export async function listSecrets(): Promise<string[]> {
  const r = await wrangler(["secret", "list", "--format", "json"]);
  if (r.code !== 0) {
    if (/not found/i.test(r.stderr + r.stdout)) return [];
    throw new Error(`wrangler secret list failed:\n${(r.stderr || r.stdout).trim().slice(-2000)}`);
  }
  return parseJsonOutput<Array<{ name: string }>>(r.stdout).map((s) => s.name);
}

/**
 * Runs `work` with a throw-away wrangler config that names the remote database by id: wrangler
 * needs the id for `d1 migrations apply` and `d1 execute --remote`, and wrangler.toml carries
 * none (the repository is untouched).
 */
export async function withRemoteD1Config<T>(database: { name: string; uuid: string }, work: (config: string) => Promise<T>, binding = "DB"): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), "yingshi-deploy-"));
  try {
    const config = path.join(dir, "wrangler.json");
    await writeFile(
      config,
      JSON.stringify({
        name: "yingshi-migrations",
        compatibility_date: "2026-04-01",
        d1_databases: [{ binding, database_name: database.name, database_id: database.uuid, migrations_dir: path.join(REPO_ROOT, "migrations") }],
      }),
    );
    return await work(config);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Applies migrations/ to the remote database (through the throw-away config above). */
export async function applyRemoteMigrations(database: { name: string; uuid: string }, binding = "DB"): Promise<void> {
  await withRemoteD1Config(
    database,
    (config) => wranglerOk(["d1", "migrations", "apply", database.name, "--remote", "--config", config], { echo: true }),
    binding,
  );
}

/**
 * Deploys with the given secrets added (kept when present: only missing ones are in the file) and
 * the given variables (`--var`, on top of wrangler.toml's [vars]).
 */
export async function deployWorker(secrets: Record<string, string>, vars: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "yingshi-deploy-"));
  try {
    const args = ["deploy", ...Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`])];
    if (Object.keys(secrets).length > 0) {
      const file = path.join(dir, "secrets.json");
      await writeFile(file, JSON.stringify(secrets), { mode: 0o600 });
      args.push("--secrets-file", file);
    }
    return await wranglerOk(args, { echo: true });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
