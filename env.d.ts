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
    /** Secret of the media upload endpoint (worker/upload/api.ts); unset, the endpoint does not exist. */
    MEDIA_UPLOAD_TOKEN?: string;
    AUTH_AUTO_CONFIRM?: string;
    EXPOSE_ACCOUNT_API?: string;
    /** "off": never serve or store pages in the edge cache (the benchmark measures the bare render with it). */
    PAGE_CACHE?: string;
    /** "off": media and /stream/ files are read from R2 on every request, never stored in the edge cache. */
    MEDIA_CACHE?: string;
    /** Milliseconds one request waits for the account service (default 8000). */
    ACCOUNT_SERVICE_TIMEOUT_MS?: string;
    /** Days without a refresh after which a session ends (default 30). */
    AUTH_SESSION_INACTIVITY_DAYS?: string;
    /** Days after the sign-in at which a session ends (default 90). */
    AUTH_SESSION_LIFETIME_DAYS?: string;
    /** Sender of the account e-mails. */
    MAIL_FROM?: string;
    /** HTTP mail API (secret): POST JSON {from, to, subject, html, text} with a bearer key. */
    MAIL_API_URL?: string;
    MAIL_API_KEY?: string;
    /** Cloudflare Email Service binding ([[send_email]] name = "EMAIL"), optional. */
    EMAIL?: SendEmail;
    /** 弹幕 rooms: one Durable Object per video (worker/danmaku/room.ts). */
    DANMAKU: DurableObjectNamespace<import("./worker/danmaku/room").DanmakuRoom>;
    /** 弹幕 rate limits: one Durable Object per user, across all rooms (worker/danmaku/rate-limit.ts). */
    DANMAKU_LIMIT: DurableObjectNamespace<import("./worker/danmaku/rate-limit").DanmakuRateLimit>;
    /** Extra blocked words for 弹幕, separated by commas or new lines. */
    DANMAKU_BLOCKED_WORDS?: string;
    /** "off": rooms start empty (no sample comments of the built-in titles). */
    DANMAKU_SAMPLES?: string;
    /** Only in the worker tests: the D1 migrations to apply. */
    TEST_MIGRATIONS?: import("@cloudflare/vitest-pool-workers").D1Migration[];
    /** Only in the worker tests: the catalogue file's D1 rows (scripts/catalogue/rows.ts), as JSON text. */
    TEST_CATALOGUE_ROWS?: string;
    /** Only in the worker tests: a generated catalogue's D1 rows (scripts/catalogue/generate.ts), as JSON text. */
    TEST_GENERATED_ROWS?: string;
  }
}

declare module "virtual:client-assets" {
  const assets: {
    scripts: string[];
    styles: string[];
    preloads: string[];
    /** Source path of a lazily loaded module → its chunk and the chunks it imports. */
    lazy: Record<string, string[]>;
    /** The early hls.js start's chunk, then the chunks it imports (shared/player/hls-start-boot.ts). */
    hlsStart: string[];
  };
  export default assets;
}

/** hls.js's light build (package export "hls.js/light"): the same API as the full build. */
declare module "hls.js/light" {
  import Hls from "hls.js";
  export default Hls;
}
