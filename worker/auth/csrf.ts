/**
 * A state-changing request must come from this site: a cross-site
 * Sec-Fetch-Site, or an Origin header naming another origin, is refused.
 * Requests without either header (curl, old browsers) are allowed; the
 * SameSite=Lax cookie already keeps them from carrying a session cross-site.
 */
export function isCrossSiteRequest(request: Request): boolean {
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  if (fetchSite === "cross-site") return true;
  const origin = request.headers.get("Origin");
  if (origin === null) return false;
  if (origin === "null") return true;
  return origin !== new URL(request.url).origin;
}
