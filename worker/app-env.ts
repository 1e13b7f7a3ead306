import type { Context } from "hono";

/** Hono environment of the worker: Cloudflare bindings plus per-request values. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    /** Per-request CSP nonce for inline scripts (set by the secure-headers middleware). */
    secureHeadersNonce?: string;
    /** Other hosts the 线路 read from, allowed in the page's CSP (worker/line-origins.ts). */
    lineOrigins?: string[];
  };
}

export type AppContext = Context<AppEnv>;
