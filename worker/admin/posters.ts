/**
 * Who posted a 弹幕 or a comment, for 弹幕管理 and 评论管理: an account named by its id or its
 * e-mail, and the e-mails of a page's account ids.
 */
import { normaliseEmail } from "../../shared/admin/account-roles";
import { configOf } from "../config";
import { accountDirectoryOf } from "./accounts";
import { accountRolesOf } from "./account-roles";

export const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A poster: the account id, and the e-mail where the account service tells it. */
export interface Poster {
  id: string;
  email: string | null;
}

/** The account an e-mail or an account id names; null when none; "unavailable" when the service cannot tell. */
export async function findPoster(env: Env, input: string): Promise<Poster | null | "unavailable"> {
  const text = input.trim();
  if (ACCOUNT_ID.test(text)) {
    const id = text.toLowerCase();
    const directory = accountDirectoryOf(env);
    if (!directory) return { id, email: null };
    const account = await directory.byId(id, Date.now());
    return account ? { id, email: account.email } : null;
  }
  if (!text.includes("@")) return null;
  const roles = accountRolesOf(env);
  if (!roles) return "unavailable";
  const account = await roles.find(normaliseEmail(text));
  return account ? { id: account.id, email: account.email } : null;
}

/** E-mails of account ids: the embedded service's table in one read; a Supabase project's are not looked up (the list shows the id). */
export async function emailsOf(env: Env, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0 || configOf(env).SUPABASE_URL) return new Map();
  const { results } = await env.DB.prepare("SELECT id, email FROM users WHERE id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify([...new Set(ids)]))
    .all<{ id: string; email: string }>();
  return new Map(results.map((r) => [r.id, r.email]));
}
