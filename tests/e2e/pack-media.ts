/**
 * Packs the e2e site's media (tests/e2e/site-env.ts) ahead of the tests: `npm test`
 * (scripts/test.mjs) starts it alongside the static checks, and the e2e global setup waits for it
 * before preparing the site, which then only seeds. Writes how it went to $E2E_MEDIA_STATUS.
 */
import { writeFile } from "node:fs/promises";
import { E2E_MEDIA_ENV } from "./site-env";

Object.assign(process.env, E2E_MEDIA_ENV);
const status = process.env.E2E_MEDIA_STATUS;
try {
  const { packTitles, titleMediaOptions } = await import("../../scripts/media/titles");
  await packTitles(titleMediaOptions(), () => {});
  if (status) await writeFile(status, JSON.stringify({ state: "done" }));
} catch (error) {
  // The global setup then packs what is missing itself, and fails with its own error if it cannot.
  if (status) await writeFile(status, JSON.stringify({ state: "failed", error: String(error) }));
  process.exitCode = 1;
}
