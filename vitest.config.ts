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
            // Property tests with a thousand runs take seconds on a loaded 2-core machine.
            testTimeout: 30_000,
          },
        },
        {
          plugins: [
            cloudflareTest({
              main: "./worker/index.ts",
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: { TEST_MIGRATIONS: migrations, DANMAKU_SAMPLES: "off" },
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
