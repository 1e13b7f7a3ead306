/** HS256 JSON Web Tokens with Web Crypto (sign, verify signature, check exp/nbf). */
import { base64UrlToBytes, bytesToBase64Url, utf8 } from "./encoding";

export type JwtPayload = Record<string, unknown>;

export class JwtError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JwtError";
  }
}

const keyCache = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keyCache.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", utf8.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    keyCache.set(secret, key);
    // Never let a rejected import stick in the cache.
    key.catch(() => keyCache.delete(secret));
  }
  return key;
}

function encodeSegment(value: unknown): string {
  return bytesToBase64Url(utf8.encode(JSON.stringify(value)));
}

function decodeSegment(segment: string): Record<string, unknown> | null {
  const bytes = base64UrlToBytes(segment);
  if (!bytes) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export async function signJwt(payload: JwtPayload, secret: string): Promise<string> {
  const input = `${encodeSegment({ alg: "HS256", typ: "JWT" })}.${encodeSegment(payload)}`;
  const signature = await crypto.subtle.sign("HMAC", await hmacKey(secret), utf8.encode(input));
  return `${input}.${bytesToBase64Url(new Uint8Array(signature))}`;
}

/**
 * Verifies an HS256 token and its time claims. `nowMs` is the current time in milliseconds.
 * Throws JwtError with a short reason (worded like golang-jwt, which GoTrue uses).
 */
export async function verifyJwt(token: string, secret: string, nowMs: number): Promise<JwtPayload> {
  const parts = token.split(".");
  if (parts.length !== 3) throw new JwtError("token is malformed: token contains an invalid number of segments");
  const header = decodeSegment(parts[0]);
  if (!header) throw new JwtError("token is malformed: could not JSON decode header");
  if (header.alg !== "HS256") throw new JwtError("token is unverifiable: signing method is invalid");
  const signature = base64UrlToBytes(parts[2]);
  if (!signature) throw new JwtError("token is malformed: could not base64 decode signature");
  const valid = await crypto.subtle.verify(
    "HMAC",
    await hmacKey(secret),
    signature,
    utf8.encode(`${parts[0]}.${parts[1]}`),
  );
  if (!valid) throw new JwtError("token signature is invalid: signature is invalid");
  const payload = decodeSegment(parts[1]);
  if (!payload) throw new JwtError("token is malformed: could not JSON decode claim");
  const { exp, nbf } = payload;
  if (typeof exp !== "number" || !Number.isFinite(exp)) {
    throw new JwtError("token has invalid claims: token is missing required claim: exp claim is required");
  }
  if (nowMs > exp * 1000) throw new JwtError("token has invalid claims: token is expired");
  if (nbf !== undefined && (typeof nbf !== "number" || nowMs < nbf * 1000)) {
    throw new JwtError("token has invalid claims: token is not valid yet");
  }
  return payload;
}

/** Decodes the payload without verifying anything (tests, debugging). */
export function decodeJwtPayload(token: string): JwtPayload | null {
  const parts = token.split(".");
  return parts.length === 3 ? decodeSegment(parts[1]) : null;
}
