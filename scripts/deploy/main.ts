/**
 * `npm run deploy`: a fresh clone becomes a live site on Cloudflare Workers (README "Deploy").
 *
 *   1. build the client, bundle the worker and check its size against the free plan's limit;
 *   2. validate the catalogue and pack the built-in titles' media that is missing;
 *   3. create what the account lacks: the R2 bucket and the D1 database named in wrangler.toml
 *      (wrangler.toml carries no account ids; `wrangler deploy` links them by name);
 *   4. apply the D1 migrations remotely and import the catalogue into D1;
 *   5. deploy the worker (Durable Object classes and their migrations included) with every
 *      secret that is missing generated at random: AUTH_JWT_SECRET and MEDIA_UPLOAD_TOKEN; and
 *      with SITE_URL (the site's address: links in account e-mails) and AUTH_AUTO_CONFIRM=false
 *      where the site can send mail (scripts/deploy/site-vars.ts says what each choice means);
 *   6. upload the media the catalogue references and the bucket lacks or holds with other bytes,
 *      through the worker's upload endpoint (docs/decisions/0052-media-upload-path.md);
 *   7. check the live site: home, one master playlist, one segment, one cover.
 *
 * Re-running changes nothing that is live: existing resources and secrets are kept, unchanged
 * media is not sent again. `--dry-run` does steps 1–2 offline and prints what would happen.
 *
 *   --dry-run          offline: build, bundle, print the plan (nothing created or uploaded)
 *   --no-build         skip the client build (it is already in dist/)
 *   --url <origin>     the site's address for uploads and checks (default: the workers.dev URL wrangler prints)
 *   --concurrency <n>  files uploaded at once (8)
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { describeAction, planMedia, planResources, referencedMedia, type Action, type Existing, type MediaPlan } from "./plan";
import { chooseSiteUrl, planSiteVars, readTomlSettings, type TomlSettings } from "./site-vars";
import { checkCatalogueFile, CATALOGUE_FILE } from "../catalogue/check";
import { packTitles } from "../media/titles";
import { checkReport, checkSite } from "./checks";
import { EndpointError, listObjects, type MediaEndpoint } from "./endpoint";
import { localMedia } from "./local-media";
import { mb } from "./progress";
import { uploadMedia } from "./upload";
import {
  applyRemoteMigrations,
  deployWorker,
  withRemoteD1Config,
  listBuckets,
  listDatabases,
  listSecrets,
  loggedIn,
  parseDeployUrls,
  wrangler,
  wranglerOk,
} from "./wrangler";
import { REPO_ROOT } from "../media/titles";

process.env.WRANGLER_SEND_METRICS = "false";

export const BUCKET = "yingshi-media";
export const DATABASE = "yingshi-accounts";
/** Where this machine keeps the upload token it set (never in the repository: .wrangler/ is ignored). */
export const TOKEN_FILE = path.join(REPO_ROOT, ".wrangler", "deploy", "media-upload-token");
const RESUME_FILE = path.join(REPO_ROOT, ".wrangler", "deploy", "multipart.json");

const randomSecret = () => randomBytes(48).toString("base64url");
/** The address of the last deploy (written below; `catalogue add --remote` reads it too). */
const SITE_URL_FILE = path.join(path.dirname(TOKEN_FILE), "site-url");

async function tomlSettings(): Promise<TomlSettings> {
  return readTomlSettings(await readFile(path.join(REPO_ROOT, "wrangler.toml"), "utf8"));
}

async function knownSiteUrl(): Promise<string | null> {
  if (!existsSync(SITE_URL_FILE)) return null;
  return (await readFile(SITE_URL_FILE, "utf8")).trim() || null;
}

/** The D1 catalogue import (DATA's `npm run catalogue -- import --remote`); skipped with a note where this version lacks it. */
export async function importCatalogueRemote(log: (line: string) => void, config?: string): Promise<void> {
  const { spawnSync } = await import("node:child_process");
  const args = ["scripts/catalogue/cli.ts", "import", "--remote", ...(config ? ["--config", config] : [])];
  const r = spawnSync(process.execPath, [path.join(REPO_ROOT, "node_modules/tsx/dist/cli.mjs"), ...args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  if (r.status === 2 && /unknown command "import"/.test(r.stderr)) {
    log("catalogue: this version has no `catalogue import`; the worker serves the catalogue bundled at build time");
    return;
  }
  if (r.status !== 0) throw new Error(`catalogue import --remote failed:\n${(r.stderr || r.stdout).trim().slice(-2000)}`);
  log(r.stdout.trim());
}

async function migrationNames(): Promise<string[]> {
  return (await readdir(path.join(REPO_ROOT, "migrations"))).filter((f) => f.endsWith(".sql")).sort();
}

async function uploadToken(existingSecrets: readonly string[], log: (line: string) => void): Promise<{ token: string; set: boolean }> {
  const fromEnv = process.env.MEDIA_UPLOAD_TOKEN?.trim();
  if (fromEnv) return { token: fromEnv, set: !existingSecrets.includes("MEDIA_UPLOAD_TOKEN") };
  if (existsSync(TOKEN_FILE) && existingSecrets.includes("MEDIA_UPLOAD_TOKEN")) return { token: (await readFile(TOKEN_FILE, "utf8")).trim(), set: false };
  if (existingSecrets.includes("MEDIA_UPLOAD_TOKEN")) log("secrets: MEDIA_UPLOAD_TOKEN is set but not known on this machine: a new one replaces it");
  const token = randomSecret();
  await mkdir(path.dirname(TOKEN_FILE), { recursive: true });
  await writeFile(TOKEN_FILE, token + "\n", { mode: 0o600 });
  await chmod(TOKEN_FILE, 0o600);
  return { token, set: true };
}

function mediaSummary(plan: MediaPlan, numbers: number): string[] {
  const lines = [`media: ${numbers} media numbers referenced by the catalogue`];
  lines.push(`  upload ${plan.uploads.length} files (${mb(plan.uploadBytes)}), ${plan.uploads.filter((u) => u.multipart).length} of them in parts`);
  if (plan.unchanged > 0) lines.push(`  unchanged in the bucket: ${plan.unchanged} files (${mb(plan.unchangedBytes)})`);
  if (plan.remoteOnly.length > 0) lines.push(`  only in the bucket (kept): ${plan.remoteOnly.join(", ")}`);
  if (plan.missing.length > 0) lines.push(`  MISSING (neither packed here nor in the bucket): ${plan.missing.join(", ")}`);
  if (plan.refused.length > 0) lines.push(`  not media keys (never uploaded): ${plan.refused.join(", ")}`);
  return lines;
}

export async function deploy(argv: readonly string[], log: (line: string) => void = console.log): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      "dry-run": { type: "boolean", default: false },
      "no-build": { type: "boolean", default: false },
      url: { type: "string" },
      concurrency: { type: "string", default: "8" },
    },
  });
  const dryRun = values["dry-run"];
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new Error("--concurrency must be 1–64");

  // 1. Build and size.
  const { spawnSync } = await import("node:child_process");
  if (!values["no-build"]) {
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], {
      cwd: REPO_ROOT,
      stdio: "inherit",
    });
    if (r.status !== 0) return r.status ?? 1;
  }
  const { bundleWorker, bundleSize, FREE_PLAN_GZIP_LIMIT_BYTES } = await import("../worker-bundle.mjs");
  const outdir = path.join(REPO_ROOT, "dist/worker");
  const bundle = bundleWorker(outdir);
  if (!bundle.ok) {
    log(`deploy: bundling the worker failed\n${bundle.output}`);
    return 1;
  }
  const size = bundleSize(outdir);
  const kib = (b: number) => `${(b / 1024).toFixed(1)} KiB`;
  log(
    `worker: ${kib(size.bytes)}, gzip ${kib(size.gzipBytes)} — ${((size.gzipBytes / FREE_PLAN_GZIP_LIMIT_BYTES) * 100).toFixed(1)} % of the free plan's ${kib(FREE_PLAN_GZIP_LIMIT_BYTES)}`,
  );
  if (size.gzipBytes > FREE_PLAN_GZIP_LIMIT_BYTES) {
    log("deploy: the worker is over the Workers free plan's size limit");
    return 1;
  }

  // 2. Catalogue and media.
  const catalogue = checkCatalogueFile(CATALOGUE_FILE);
  if (!catalogue.ok) {
    log(`deploy: catalogue/titles.json has problems (npm run catalogue -- check)`);
    return 1;
  }
  const references = referencedMedia(catalogue.titles);
  if (!dryRun) await packTitles(undefined, log);
  const local = await localMedia(references.keys());

  const wanted = { bucket: BUCKET, database: DATABASE, secrets: ["AUTH_JWT_SECRET", "MEDIA_UPLOAD_TOKEN"] };
  if (dryRun) {
    log("deploy --dry-run (offline: nothing created, uploaded or deployed)");
    log("would create when missing (the account is not asked offline):");
    for (const a of planResources(wanted, null)) log(`  ${describeAction(a)}`);
    log("  Durable Object class DanmakuRoom (wrangler.toml migrations, applied by wrangler deploy)");
    log(`would apply D1 migrations remotely: ${(await migrationNames()).join(", ")}`);
    log("would import the catalogue into D1 (npm run catalogue -- import --remote)");
    const plan = planMedia(references, local, new Map());
    for (const line of mediaSummary(plan, references.size)) log(line.replace(/^ {2}upload/, "  would upload at most"));
    log("  (the real deploy lists the bucket first and skips every file it already holds with the same checksum)");
    const site = planSiteVars({ secrets: [], toml: await tomlSettings(), url: values.url ?? (await knownSiteUrl()) });
    log("would set, as if the worker had no secrets yet (the account is not asked offline):");
    for (const note of site.notes) log(`  ${note}`);
    log(`would deploy worker "yingshi" (gzip ${kib(size.gzipBytes)}), then check: home, one master playlist, one segment, one cover`);
    return plan.missing.length > 0 ? 1 : 0;
  }

  // 3. The account.
  if (!(await loggedIn())) {
    log("deploy: wrangler is not logged in — run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN) and try again");
    return 1;
  }
  const databases = await listDatabases();
  const existing: Existing = { buckets: await listBuckets(), databases: databases.map((d) => d.name), secrets: await listSecrets() };
  const actions: Action[] = planResources(wanted, existing);
  for (const a of actions) {
    if (a.kind === "create-bucket") {
      log(`deploy: ${describeAction(a)}`);
      await wranglerOk(["r2", "bucket", "create", a.name]);
    } else if (a.kind === "create-database") {
      log(`deploy: ${describeAction(a)}`);
      await wranglerOk(["d1", "create", a.name]);
    }
  }
  const database = (await listDatabases()).find((d) => d.name === DATABASE);
  if (!database) throw new Error(`D1 database ${DATABASE} is not in the account after creating it`);

  // 4. Database.
  await applyRemoteMigrations(database);
  await withRemoteD1Config(database, (config) => importCatalogueRemote(log, config));

  // 5. Worker with missing secrets.
  const secrets: Record<string, string> = {};
  if (actions.some((a) => a.kind === "put-secret" && a.name === "AUTH_JWT_SECRET")) secrets.AUTH_JWT_SECRET = randomSecret();
  const upload = await uploadToken(existing.secrets, log);
  if (upload.set) secrets.MEDIA_UPLOAD_TOKEN = upload.token;
  if (Object.keys(secrets).length > 0) log(`secrets: setting ${Object.keys(secrets).join(", ")} (random; existing secrets are kept)`);
  const toml = await tomlSettings();
  const known = await knownSiteUrl();
  const site = planSiteVars({ secrets: existing.secrets, toml, url: values.url ?? known });
  for (const note of site.notes) log(note);
  const output = await deployWorker(secrets, site.vars);
  const printed = parseDeployUrls(output);
  const url = values.url ?? printed[0];
  if (!url) {
    log("deploy: wrangler did not print the worker's URL; run again with --url https://your.domain");
    return 1;
  }
  // A first deploy learns its workers.dev address only now: deploy once more with SITE_URL set to it.
  const siteUrl = chooseSiteUrl(values.url ?? null, known, printed);
  if (!toml.vars.SITE_URL?.trim() && siteUrl && site.vars.SITE_URL !== siteUrl) {
    log(`SITE_URL: ${siteUrl} (deploying once more with it; links in account e-mails use it)`);
    await deployWorker({}, { ...site.vars, SITE_URL: siteUrl });
  }

  // `catalogue add --remote` uploads to this site later; the next deploy sets SITE_URL from it.
  await writeFile(SITE_URL_FILE, (siteUrl ?? url) + "\n");

  // 6. Media.
  const endpoint: MediaEndpoint = { baseURL: url, token: upload.token };
  let remote;
  try {
    remote = await listObjects(endpoint);
  } catch (error) {
    log(`deploy: listing the bucket through ${url}/api/media failed: ${(error as Error).message}`);
    if (error instanceof EndpointError && error.status === 401)
      log("  the upload token differs from the worker's: delete .wrangler/deploy/media-upload-token and MEDIA_UPLOAD_TOKEN, then run again");
    return 1;
  }
  const plan = planMedia(references, local, remote);
  for (const line of mediaSummary(plan, references.size)) log(line);
  const result = await uploadMedia(endpoint, plan.uploads, { concurrency, statePath: path.join(RESUME_FILE) });
  log(`media: ${result.uploaded} uploaded (${mb(result.bytes)}), ${result.failed.length} failed, ${result.held.length} held back`);
  for (const f of result.failed) log(`  FAILED ${f.key}: ${f.error}`);

  // 7. Checks.
  const first = catalogue.titles[0];
  const n = first.videoFile.replace(/^\/+/, "").replace(/\.mp4$/, "");
  const checks = await checkSite(url, n);
  log(`checks of ${url}:\n${checkReport(checks)}`);
  const ok = checks.every((c) => c.ok) && result.failed.length === 0 && plan.missing.length === 0;
  log(ok ? `deployed: ${url}` : `deployed to ${url} with problems (above); run \`npm run deploy\` again to retry`);
  return ok ? 0 : 1;
}

export { wrangler };
