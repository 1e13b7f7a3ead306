import { NONCE, secureHeaders } from "hono/secure-headers";

/**
 * Security headers on every response of the worker; HTML gets a CSP whose
 * script-src allows only this site and a fresh per-request nonce (the
 * hydration data and React's streaming scripts carry it), no 'unsafe-inline'.
 */
export const securityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", NONCE],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "blob:"],
    mediaSrc: ["'self'", "blob:"],
    connectSrc: ["'self'"],
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
});
