// Role holders for the 管理后台 tests: accounts granted a role through the same statements as
// `npm run admin -- grant` (shared/admin/account-roles.ts), enrolled in the second step through
// the API with codes computed by the TOTP library, and further sessions of the same account.
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { findAccountStatement, setRoleStatement, type UserRoleRow } from "../../../shared/admin/account-roles";
import type { AdminRole } from "../../../shared/admin/roles";
import { prepared } from "../../../worker/admin/audit";
import { totpCode } from "../../../worker/admin/totp";
import { absorb, BASE, call, PASSWORD, signUp, type CallOptions, type Jar } from "./visitor";

/** Writes come from the site's own pages. */
export const SAME_SITE = { Origin: BASE };

export async function grant(email: string, role: AdminRole | null): Promise<void> {
  const row = await prepared(env.DB, findAccountStatement(email)).first<UserRoleRow>();
  expect(row, email).not.toBeNull();
  await prepared(env.DB, setRoleStatement(row!.id, role, new Date().toISOString())).run();
}

/** A POST from this site's pages (JSON body). */
export function post(path: string, jar: Jar | undefined, json: unknown = {}, o: CallOptions = {}): Promise<Response> {
  return call("POST", path, { ...o, jar, json, headers: { ...SAME_SITE, ...o.headers } });
}

/** Another sign-in of the same account: a new session, not past the second step. */
export async function newSession(email: string): Promise<Jar> {
  const res = await call("POST", "/api/auth/sign-in", { json: { email, password: PASSWORD } });
  expect(res.status, await res.clone().text()).toBe(200);
  return absorb(new Map(), res);
}

export interface RoleHolder {
  email: string;
  userId: string;
  /** A session past the second step. */
  jar: Jar;
  secret: string;
  recoveryCodes: string[];
}

/** The base32 secret as the enrol answer shows it (grouped by four). */
export const plainSecret = (shown: string): string => shown.replace(/\s/g, "");

/** A new account with `role`, enrolled: its session passed the second step. */
export async function enrolledHolder(role: AdminRole, tag: string = role): Promise<RoleHolder> {
  const { email, jar } = await signUp(tag);
  await grant(email, role);
  const enrol = await post("/api/admin/two-step/enrol", jar);
  expect(enrol.status, await enrol.clone().text()).toBe(200);
  const { secret } = await enrol.json<{ secret: string }>();
  const confirm = await post("/api/admin/two-step/confirm", jar, { code: totpCode(plainSecret(secret), Date.now()) });
  expect(confirm.status, await confirm.clone().text()).toBe(200);
  const { recoveryCodes } = await confirm.json<{ recoveryCodes: string[] }>();
  const row = await prepared(env.DB, findAccountStatement(email)).first<UserRoleRow>();
  return { email, userId: row!.id, jar, secret: plainSecret(secret), recoveryCodes };
}

/** Lets the account's next TOTP code be accepted again (each 30-second step is good once). */
export async function forgetLastStep(userId: string): Promise<void> {
  await env.DB.prepare("UPDATE admin_totp SET last_step = 0 WHERE user_id = ?").bind(userId).run();
}

/** The session's second step passed `ms` ago (moves verified_at back). */
export async function backdateVerification(userId: string, ms: number): Promise<void> {
  await env.DB.prepare("UPDATE admin_verified_sessions SET verified_at = verified_at - ? WHERE user_id = ?").bind(ms, userId).run();
}
