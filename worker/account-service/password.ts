/**
 * Password hashing: PBKDF2-HMAC-SHA256 through Web Crypto.
 *
 * Stored format (parameters live with the hash, so the work factor can change later):
 *   pbkdf2-sha256$<iterations>$<salt, standard base64>$<32-byte derived key, standard base64>
 *
 * Iterations: 100 000 — the maximum workerd's Web Crypto accepts. workerd rejects larger
 * counts with "Pbkdf2 failed: iteration counts above 100000 are not supported" (see
 * cloudflare/workerd issue #1346), so OWASP's 600 000 for PBKDF2-SHA256 is not reachable
 * inside a Worker. Hashes with other iteration counts still verify (up to the cap), so a
 * future runtime with a higher cap can raise PBKDF2_ITERATIONS without breaking old rows.
 */
import { base64ToBytes, bytesToBase64, randomBytes, utf8 } from "./encoding";

export const PASSWORD_SCHEME = "pbkdf2-sha256";
/** workerd's hard cap for PBKDF2 iterations. */
export const PBKDF2_MAX_ITERATIONS = 100_000;
export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", utf8.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, KEY_BYTES * 8);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, iterations);
  return `${PASSWORD_SCHEME}$${iterations}$${bytesToBase64(salt)}$${bytesToBase64(hash)}`;
}

/** Constant-time comparison of two byte strings of equal length (length itself is public). */
function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

interface ParsedHash {
  iterations: number;
  salt: Uint8Array<ArrayBuffer>;
  hash: Uint8Array;
}

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split("$");
  if (parts.length !== 4 || parts[0] !== PASSWORD_SCHEME || !/^[1-9][0-9]{0,8}$/.test(parts[1])) return null;
  const iterations = Number(parts[1]);
  if (iterations > PBKDF2_MAX_ITERATIONS) return null;
  const salt = base64ToBytes(parts[2]);
  const hash = base64ToBytes(parts[3]);
  if (!salt || !hash || salt.length === 0 || hash.length === 0) return null;
  return { iterations, salt, hash };
}

/**
 * A well-formed hash of no real password: verifying against it costs the same as verifying a
 * real user's password, so unknown e-mail addresses and wrong passwords take similar time.
 */
export const DUMMY_PASSWORD_HASH = `${PASSWORD_SCHEME}$${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;

const DUMMY_PARSED = parseHash(DUMMY_PASSWORD_HASH)!;

/** True when `password` matches the stored string. Malformed stored strings never match. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  const target = parsed ?? DUMMY_PARSED;
  // Always derive, even for a malformed stored string, so the cost does not depend on it.
  const derived = await derive(password, target.salt, target.iterations);
  return parsed !== null && stored !== DUMMY_PASSWORD_HASH && timingSafeEqual(derived, target.hash);
}
