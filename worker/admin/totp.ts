/**
 * TOTP (RFC 6238: SHA-1, 6 digits, 30 s, one step either side) through the `otpauth` library,
 * and the enrolment QR code as SVG through `uqr` — made here, no outside origin.
 */
import { Secret, TOTP } from "otpauth";
import { renderSVG } from "uqr";

const PERIOD_SECONDS = 30;

function totpOf(secretBase32: string, label = "", issuer = ""): TOTP {
  return new TOTP({ issuer, label, algorithm: "SHA1", digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/** A new random secret (160 bits, as RFC 4226 recommends), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, account: string, issuer: string): string {
  return totpOf(secretBase32, account, issuer).toString();
}

/**
 * The 30-second step a 6-digit code belongs to (now, or one step before or after), or null when
 * it is wrong. The caller refuses a step at or before the last one accepted (a code is good once).
 */
export function acceptedStep(secretBase32: string, code: string, nowMs: number): number | null {
  const totp = totpOf(secretBase32);
  const delta = totp.validate({ token: code, timestamp: nowMs, window: 1 });
  return delta === null ? null : totp.counter({ timestamp: nowMs }) + delta;
}

/** The code of `secretBase32` at `nowMs` (tests, and the e2e test that plays the authenticator app). */
export function totpCode(secretBase32: string, nowMs: number): string {
  return totpOf(secretBase32).generate({ timestamp: nowMs });
}

/** The secret grouped by four for reading and typing (spaces are ignored by authenticator apps). */
export function groupedSecret(secretBase32: string): string {
  return secretBase32.replace(/(.{4})(?=.)/g, "$1 ");
}

/** The QR code of `text` as an SVG element (black on white, a quiet zone of 4 modules). */
export function qrSvg(text: string): string {
  return renderSVG(text, { border: 4, pixelSize: 6, ecc: "M" });
}
