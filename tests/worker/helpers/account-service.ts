// The embedded account service (worker/account-service) on its own, inside workerd: its
// in-process fetch over the test D1, with a clock the test can move, a mailbox that keeps what
// it sends, supabase-js clients and raw HTTP calls. Shared by tests/worker/account-service.*.test.ts.
import { env } from "cloudflare:test";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { expect } from "vitest";
import { accountServiceFetch, RATE_LIMITS, type AccountServiceOptions } from "../../../worker/account-service";
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

// ---- raw HTTP calls of the account-service.*.test.ts endpoint blocks ------------------------------

export const PASSWORD = "correct horse 1";

/**
 * A clock that starts a second into a rate-limit window (all are 5 minutes) and runs with real
 * time: a test counting up to a limit is not split across two windows (and reset) by the moment
 * it happens to run at.
 */
export function windowClock(): () => number {
  const { windowMs } = RATE_LIMITS.password;
  const start = Date.now();
  const base = Math.floor(start / windowMs) * windowMs + 1000;
  return () => base + (Date.now() - start);
}

/** Asserts a contract error: status, header, body {code, message[, weak_password]}. */
export async function expectError(res: Response, status: number, code: string, message?: string | RegExp) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get("X-Supabase-Api-Version")).toBe("2024-01-01");
  expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe("string");
  if (typeof message === "string") expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
  const allowed = code === "weak_password" ? ["code", "message", "weak_password"] : ["code", "message"];
  expect(Object.keys(body).sort()).toEqual(allowed.sort());
  return body;
}

export interface SessionBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown> & { id: string; email: string };
}

export async function signUp(svc: AccountService, email: string, password = PASSWORD, data?: unknown): Promise<SessionBody> {
  const res = await svc.request("POST", "/signup", { body: { email, password, ...(data ? { data } : {}) } });
  expect(res.status, await res.clone().text()).toBe(200);
  return await res.json<SessionBody>();
}

export async function signIn(svc: AccountService, email: string, password = PASSWORD): Promise<SessionBody> {
  const res = await svc.request("POST", "/token?grant_type=password", { body: { email, password } });
  expect(res.status, await res.clone().text()).toBe(200);
  return await res.json<SessionBody>();
}

export function refresh(svc: AccountService, refreshToken: string, ip?: string): Promise<Response> {
  return svc.request("POST", "/token?grant_type=refresh_token", { body: { refresh_token: refreshToken }, ip });
}

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
