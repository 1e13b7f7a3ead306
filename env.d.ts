/// <reference types="@cloudflare/workers-types" />

/** Bindings and variables of the worker (wrangler.toml, secrets). */
type Env = Cloudflare.Env;

declare namespace Cloudflare {
  interface Env {
    ASSETS: Fetcher;
    MEDIA: R2Bucket;
    DB: D1Database;
    SITE_NAME?: string;
    SITE_URL?: string;
    BUSINESS_CONTACT?: string;
    FILING_NUMBER?: string;
    CULTURE_LICENCE?: string;
    SUPABASE_URL?: string;
    SUPABASE_ANON_KEY?: string;
    AUTH_JWT_SECRET?: string;
    AUTH_AUTO_CONFIRM?: string;
    EXPOSE_ACCOUNT_API?: string;
    /** "off": never serve or store pages in the edge cache (the benchmark measures the bare render with it). */
    PAGE_CACHE?: string;
    /** Milliseconds one request waits for the account service (default 8000). */
    ACCOUNT_SERVICE_TIMEOUT_MS?: string;
    /** Only in the worker tests: the D1 migrations to apply. */
    TEST_MIGRATIONS?: import("@cloudflare/vitest-pool-workers").D1Migration[];
  }
}

declare module "virtual:client-assets" {
  const assets: {
    scripts: string[];
    styles: string[];
    preloads: string[];
    /** Source path of a lazily loaded module → its chunk and the chunks it imports. */
    lazy: Record<string, string[]>;
  };
  export default assets;
}
