import os from "node:os";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { configDefaults, defineConfig } from "vitest/config";
import { readCatalogue } from "./scripts/catalogue/check";
import { generateCatalogue } from "./scripts/catalogue/generate";
import { titleRows } from "./shared/catalogue/rows";
import { E2E_MEDIA_ENV } from "./tests/e2e/site-env";
import { inlineScripts } from "./scripts/inline-scripts";

const root = import.meta.dirname;
const GENERATED_TITLES = 360;

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(root, "migrations"));
  // The worker tests' D1 holds the catalogue file, imported the way `npm run catalogue -- import` does.
  // Rows travel as JSON text: Miniflare validates a structured binding value by value, which cost
  // about 8 s of CPU per test file for these few hundred rows; a string binding costs nothing.
  const catalogueRows = JSON.stringify(titleRows(readCatalogue()));
  // The D1 query tests' catalogue: a few hundred generated titles (tests/worker/catalogue-queries.test.ts).
  const generatedRows = JSON.stringify(titleRows(generateCatalogue(GENERATED_TITLES)));
  /**
   * The worker tests inside workerd. Two projects with the same setup: "worker" with the sample
   * 弹幕 off (its tests count the comments they post), "worker-samples" with them on, as deployed
   * (only the *.samples.test.ts files: a Durable Object reads its bindings from here, not per request).
   * `only`: a project of these files alone, in a runtime of their own (the "worker" project leaves them out).
   */
  const FUZZ = ["tests/worker/fuzz.test.ts"];
  const workerProject = (name: string, vars: { DANMAKU_SAMPLES: "on" | "off" }, only?: string[]) => {
    const samplesOnly = vars.DANMAKU_SAMPLES === "on";
    return {
      plugins: [
        cloudflareTest({
          main: "./worker/index.ts",
          wrangler: { configPath: "./wrangler.toml" },
          miniflare: {
            bindings: { TEST_MIGRATIONS: migrations, TEST_CATALOGUE_ROWS: catalogueRows, TEST_GENERATED_ROWS: generatedRows, ...vars },
          },
        }),
      ],
      resolve: {
        alias: {
          "virtual:client-assets": path.join(root, "dist/client-assets.js"),
          "virtual:admin-assets": path.join(root, "dist/admin-assets.js"),
          "virtual:inline-scripts": path.join(root, "dist/inline-scripts.js"),
        },
      },
      // wrangler.toml defines NODE_ENV=production (React's production build): compile JSX to match.
      oxc: { jsx: { runtime: "automatic" as const, development: false } },
      test: {
        name,
        include: only ?? [samplesOnly ? "tests/worker/**/*.samples.test.{ts,tsx}" : "tests/worker/**/*.test.{ts,tsx}"],
        exclude: samplesOnly || only ? configDefaults.exclude : [...configDefaults.exclude, "tests/worker/**/*.samples.test.{ts,tsx}", ...FUZZ],
        setupFiles: ["./tests/worker/setup.ts"],
        testTimeout: 30_000,
      },
    };
  };
  return {
    test: {
      // Vitest's default on this 2-core machine is one file at a time (cores - 1): two halve the unit
      // and worker phase (the e2e files still run one at a time, below).
      maxWorkers: Math.max(2, os.availableParallelism() - 1),
      projects: [
        {
          // A player page's inline scripts, compiled from client/inline/ as the build does.
          plugins: [inlineScripts(root)],
          test: {
            name: "unit",
            include: ["tests/unit/**/*.test.{ts,tsx}"],
            environment: "node",
            // Property tests with a thousand runs take seconds on a loaded 2-core machine.
            testTimeout: 30_000,
          },
        },
        workerProject("worker", { DANMAKU_SAMPLES: "off" }),
        workerProject("worker-samples", { DANMAKU_SAMPLES: "on" }),
        // The URL fuzzing in a runtime of its own: in the shared one, a video page answer hung for
        // over 90 s in two full runs in a row (CI11, CI12), after the files before it in that
        // runtime, while the file alone passes every time (what they leave behind is not found yet).
        workerProject("worker-fuzz", { DANMAKU_SAMPLES: "off" }, FUZZ),
        {
          test: {
            name: "e2e",
            include: ["tests/e2e/**/*.test.ts"],
            environment: "node",
            // The e2e site's media directory, for the tests that read its packs (tests/e2e/site-env.ts).
            env: { ...E2E_MEDIA_ENV },
            globalSetup: ["./tests/e2e/global-setup.ts"],
            setupFiles: ["./tests/e2e/site-ready.ts"],
            fileParallelism: false,
            // describe.concurrent blocks (independent page audits) run this many tests at once.
            maxConcurrency: 3,
            testTimeout: 60_000,
            hookTimeout: 90_000,
          },
        },
      ],
    },
  };
});
