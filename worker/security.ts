import type { Context } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./app-env";

type SecureHeadersOptions = NonNullable<Parameters<typeof secureHeaders>[0]>;

/**
 * The 线路's other hosts (worker/line-origins.ts, set on page requests): media and the playlists
 * and segments hls.js fetches may come from them, from no other host.
 */
const LINE_ORIGINS = (c: Context) => ((c as Context<AppEnv>).get("lineOrigins") ?? []).join(" ");

/**
 * Security headers of the site's responses; HTML gets a CSP whose
 * script-src allows only this site and a fresh per-request nonce (the
 * hydration data and React's streaming scripts carry it), no 'unsafe-inline'.
 */
const SITE_SECURITY: SecureHeadersOptions = {
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", NONCE],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "blob:"],
    mediaSrc: ["'self'", "blob:", LINE_ORIGINS],
    connectSrc: ["'self'", LINE_ORIGINS],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  strictTransportSecurity: "max-age=31536000; includeSubDomains",
  xFrameOptions: "DENY",
  referrerPolicy: "strict-origin-when-cross-origin",
  xContentTypeOptions: "nosniff",
  crossOriginResourcePolicy: "same-origin",
  crossOriginOpenerPolicy: "same-origin",
  crossOriginEmbedderPolicy: false,
  permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [], usb: [] },
  removePoweredBy: true,
  xXssProtection: "0",
};

/** On every response of the worker except /stream/ and /N.mp4 (worker/index.ts). */
export const securityHeaders = secureHeaders(SITE_SECURITY);

/**
 * The same headers for /stream/ (worker/stream/) and the progressive `/N.mp4`, except Cross-Origin-Resource-Policy
 * `cross-origin`: apps and embeds on other origins play these files, and CORP `same-origin`
 * would make browsers refuse them (docs/decisions/0001-hls-delivery.md).
 */
export const streamSecurityHeaders = secureHeaders({ ...SITE_SECURITY, crossOriginResourcePolicy: "cross-origin" });
