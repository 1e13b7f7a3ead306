import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(root, "migrations"));
  return {
    test: {
      projects: [
        {
          test: {
            name: "unit",
            include: ["tests/unit/**/*.test.{ts,tsx}"],
            environment: "node",
            // fast-check properties run thousands of cases: ~1 s alone, but on a shared 2-core machine
            // under load several times that (vitest's default of 5 s failed them there). Not a speed check.
            testTimeout: 30_000,
          },
        },
        {
          plugins: [
            cloudflareTest({
              main: "./worker/index.ts",
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: { TEST_MIGRATIONS: migrations },
              },
            }),
          ],
          resolve: {
            alias: { "virtual:client-assets": path.join(root, "dist/client-assets.js") },
          },
          // wrangler.toml defines NODE_ENV=production (React's production build): compile JSX to match.
          oxc: { jsx: { runtime: "automatic" as const, development: false } },
          test: {
            name: "worker",
            include: ["tests/worker/**/*.test.{ts,tsx}"],
            setupFiles: ["./tests/worker/setup.ts"],
            testTimeout: 30_000,
          },
        },
        {
          test: {
            name: "e2e",
            include: ["tests/e2e/**/*.test.ts"],
            environment: "node",
            globalSetup: ["./tests/e2e/global-setup.ts"],
            fileParallelism: false,
            testTimeout: 60_000,
            hookTimeout: 90_000,
          },
        },
      ],
    },
  };
});
