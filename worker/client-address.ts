/**
 * The visitor's address and country, as Cloudflare reports them: `CF-Connecting-IP` (else the
 * first `X-Forwarded-For` entry, as local tools send it) and `CF-IPCountry`. The worker passes
 * both on to the embedded account service on its in-process requests.
 */

/** Requests without an address (local tools) share this one. */
export const UNKNOWN_ADDRESS = "unknown";

export function clientAddress(headers: Headers): string {
  const cf = headers.get("CF-Connecting-IP")?.trim();
  if (cf) return cf.slice(0, 64);
  const forwarded = headers.get("X-Forwarded-For")?.split(",")[0]?.trim();
  if (forwarded) return forwarded.slice(0, 64);
  return UNKNOWN_ADDRESS;
}

/** Two-letter country code, or null ("XX" and "T1" — unknown and Tor — count as none). */
export function clientCountry(headers: Headers, cf?: { country?: unknown }): string | null {
  const value = (typeof cf?.country === "string" ? cf.country : headers.get("CF-IPCountry"))?.trim().toUpperCase();
  return value && /^[A-Z]{2}$/.test(value) && value !== "XX" && value !== "T1" ? value : null;
}
