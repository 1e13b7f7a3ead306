// The embedded account service (worker/account-service) on its own, inside workerd: its
// in-process fetch over the test D1, with a clock the test can move, a mailbox that keeps what
// it sends, supabase-js clients and raw HTTP calls. Shared by tests/worker/account-service.*.test.ts.
import { env } from "cloudflare:test";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { accountServiceFetch, type AccountServiceOptions } from "../../../worker/account-service";
import type { Mailer, MailMessage } from "../../../worker/mail/index";
import { uniqueIp } from "./unique";

/** The signing secret the service gets unless a test passes its own (or none). */
export const JWT_SECRET = "account-service-test-secret-0123";

export interface RawCallOptions {
  /** A JSON body. */
  body?: unknown;
  /** A body sent as it is (with the JSON content type). */
  rawBody?: string;
  /** Sent as `Authorization: Bearer …`. */
  token?: string;
  /** The client's address (default: a new one per call). */
  ip?: string;
  headers?: Record<string, string>;
}

export interface AccountService {
  opts: AccountServiceOptions;
  /** The service's in-process fetch. */
  fetch: typeof fetch;
  /** Moves the service clock forward (ms), on top of whatever clock it was given. */
  advance(ms: number): void;
  /** Mails the service sent (its mailer keeps them), oldest first. */
  mail: MailMessage[];
  /** A fresh supabase-js client (no stored session, no auto refresh, its own client address). */
  client(flowType?: "implicit" | "pkce"): SupabaseClient;
  /** A raw call to `/auth/v1{path}`, as supabase-js sends them (apikey and API version headers). */
  request(method: string, path: string, o?: RawCallOptions): Promise<Response>;
}

/** The service over the test D1 with `overrides` (auto-confirm on, a fixed secret, a movable clock, a kept mailbox). */
export function accountService(overrides: Partial<AccountServiceOptions> = {}): AccountService {
  let offset = 0;
  const mail: MailMessage[] = [];
  const mailer: Mailer = { kind: "kept", send: (m) => Promise.resolve(void mail.push(m)) };
  const opts: AccountServiceOptions = {
    db: env.DB,
    jwtSecret: JWT_SECRET,
    issuerBase: "http://localhost",
    autoConfirm: true,
    mailer,
    ...overrides,
  };
  const clock = overrides.now ?? Date.now;
  opts.now = () => clock() + offset;
  const serviceFetch = accountServiceFetch(opts);
  return {
    opts,
    fetch: serviceFetch,
    mail,
    advance: (ms) => void (offset += ms),
    client: (flowType = "implicit") =>
      createClient("http://localhost", "anon-key", {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType },
        global: { fetch: serviceFetch, headers: { "CF-Connecting-IP": uniqueIp() } },
      }),
    request(method, path, o = {}) {
      const headers: Record<string, string> = {
        apikey: "anon-key",
        "X-Supabase-Api-Version": "2024-01-01",
        "CF-Connecting-IP": o.ip ?? uniqueIp(),
        ...o.headers,
      };
      if (o.token !== undefined) headers.Authorization = `Bearer ${o.token}`;
      const body = o.rawBody ?? (o.body !== undefined ? JSON.stringify(o.body) : undefined);
      if (body !== undefined) headers["Content-Type"] = "application/json;charset=UTF-8";
      return serviceFetch(`http://localhost/auth/v1${path}`, { method, headers, body });
    },
  };
}
