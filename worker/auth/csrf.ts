/**
 * Whether a request comes from this site's own pages: the one origin check of the worker (account
 * API, play beacon, 弹幕 send and socket, 举报 and the error beacon: worker/reports/api.ts). A cross-site Sec-Fetch-Site, an Origin of "null" or
 * empty, or an Origin naming another origin is refused. This site's origins are the request's
 * own and, when the caller names it, SITE_URL's (the 弹幕 routes: decisions/0040-danmaku.md).
 *
 * The two callers' policies differ on one point, on purpose: a request WITHOUT an Origin header.
 * - Forms and plain HTTP clients (the account API, the play beacon): allowed. Older browsers send
 *   no Origin on same-origin form posts, and the SameSite=Lax session cookie already keeps a
 *   cross-site request from carrying a session.
 * - WebSocket upgrades and the 弹幕 send (`requireOrigin`): refused. Browsers always send Origin on
 *   an upgrade and on a fetch with a JSON body, and a WebSocket upgrade is a GET that SameSite=Lax
 *   does not stop, so a missing Origin means no page of this site (cross-site WebSocket hijacking).
 */
import { configOf } from "../config";

export interface OriginPolicy {
  /** Refuse a request without an Origin header (WebSocket upgrades, JSON posts). */
  requireOrigin: boolean;
  /** Another URL whose origin counts as this site's (SITE_URL), when the caller has one. */
  siteUrl?: string;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Whether `request` comes from this site under `policy` (see above). */
export function isSameSiteRequest(request: Request, policy: OriginPolicy): boolean {
  if (request.headers.get("Sec-Fetch-Site") === "cross-site") return false;
  const origin = request.headers.get("Origin");
  if (origin === null) return !policy.requireOrigin;
  if (origin === "" || origin === "null") return false;
  if (origin === new URL(request.url).origin) return true;
  return policy.siteUrl !== undefined && policy.siteUrl !== "" && origin === originOf(policy.siteUrl);
}

/**
 * A JSON write, a WebSocket upgrade or a beacon from this site's pages: the Origin must be there and
 * name this origin or SITE_URL's. The one policy of every JSON API and socket.
 */
export function isFromThisSite(request: Request, env: Env): boolean {
  return isSameSiteRequest(request, { requireOrigin: true, siteUrl: configOf(env).SITE_URL });
}

/** A state-changing form or beacon request from another site (a missing Origin is allowed: see above). */
export function isCrossSiteRequest(request: Request): boolean {
  return !isSameSiteRequest(request, { requireOrigin: false });
}
