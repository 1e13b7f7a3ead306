#!/usr/bin/env node
// @ts-check
/**
 * `npm run deploy` (see scripts/deploy/main.ts and README "Deploy"): build, provision, migrate,
 * deploy, upload the catalogue's media, check the live site. `npm run deploy -- --dry-run` works
 * offline and prints what it would do, with the worker's gzip size against the free plan's limit.
 */
import { register } from "tsx/esm/api";

process.env.WRANGLER_SEND_METRICS = "false";
register();
const { deploy } = await import("./deploy/main.ts");
try {
  process.exitCode = await deploy(process.argv.slice(2));
} catch (error) {
  console.error(`deploy: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
