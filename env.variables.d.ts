/**
 * What `wrangler types` cannot read from wrangler.toml (env.d.ts is generated: `npm run types`):
 * the configuration variables and secrets, declared from worker/config.ts's schema (each an
 * optional text) so that the schema is their one list; the optional
 * e-mail binding; and the bindings that only the worker tests add. Read a variable through
 * `configOf(env)` (worker/config.ts), never as `env.NAME` (eslint.config.js refuses that).
 */
declare namespace Cloudflare {
  /** The variables and secrets: the keys of worker/config.ts's schema. */
  type ConfigVariables = import("./worker/config").ConfigVariables;

  interface Env extends ConfigVariables {
    /** Cloudflare Email Service binding ([[send_email]] name = "EMAIL", added by `npm run deploy` when configured), optional. */
    EMAIL?: SendEmail;
    /** Only in the worker tests: the D1 migrations to apply. */
    TEST_MIGRATIONS?: import("@cloudflare/vitest-pool-workers").D1Migration[];
    /** Only in the worker tests: the catalogue file's D1 rows (shared/catalogue/rows.ts), as JSON text. */
    TEST_CATALOGUE_ROWS?: string;
    /** Only in the worker tests: a generated catalogue's D1 rows (scripts/catalogue/generate.ts), as JSON text. */
    TEST_GENERATED_ROWS?: string;
  }
}
