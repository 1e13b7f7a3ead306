/**
 * `npm run media`: packs the built-in titles' placeholder media (scripts/media/titles.ts, sizes
 * from MEDIA_* variables) and seeds them into the local R2 bucket (scripts/media/seed.ts).
 *
 *   tsx scripts/media/prepare.ts            # pack what is missing or stale, then seed
 *   tsx scripts/media/prepare.ts --no-seed  # pack only
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { seedTitles } from "./seed";
import { packTitles, titleMediaOptions } from "./titles";

/** persistPath: another local state's v3 directory to seed (`wrangler dev --persist-to X` → X/v3). */
export async function prepareMedia({
  log = console.log,
  seed = true,
  persistPath,
}: { log?: (line: string) => void; seed?: boolean; persistPath?: string } = {}): Promise<void> {
  const titles = await packTitles(titleMediaOptions(), log);
  if (seed) await seedTitles(titles, log, persistPath);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  prepareMedia({ seed: !process.argv.includes("--no-seed") }).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
