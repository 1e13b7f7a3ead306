/** The origin of the links in this request's account e-mails (never its Host header). */
import type { AppContext } from "../app-env";
import { configOf, mailLinkOrigin, SITE_URL_MISSING_LOG } from "../config";

/**
 * SITE_URL's origin, or a local request's origin (worker/config.ts `mailLinkOrigin`). Without one,
 * the embedded service could only build links from the Host header: the request is refused
 * (`ok: false`, logged with a `config:` line). A real Supabase project builds its links from its
 * own Site URL: `origin: null` leaves the redirect to it.
 */
export function mailLinkOriginOf(c: AppContext): { ok: true; origin: string | null } | { ok: false } {
  const config = configOf(c.env);
  const origin = mailLinkOrigin(config, c.req.url);
  if (origin || (config.SUPABASE_URL && config.SUPABASE_ANON_KEY)) return { ok: true, origin };
  console.error(SITE_URL_MISSING_LOG);
  return { ok: false };
}
