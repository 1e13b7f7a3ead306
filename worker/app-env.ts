import type { Context } from "hono";

/** Hono environment of the worker: Cloudflare bindings plus per-request values. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    /** Per-request CSP nonce for inline scripts (set by the secure-headers middleware). */
    secureHeadersNonce?: string;
  };
}

export type AppContext = Context<AppEnv>;
