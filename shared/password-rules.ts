/**
 * The one password rule of the site, used by the sign-up form, the worker's API and the embedded
 * account service: at least 6 characters (spec: 密码长度至少6位), counted as Unicode code points —
 * "密码密码密码" and "🙂🙂🙂🙂🙂🙂" are six — and at most 72 UTF-8 bytes (Supabase Auth's bcrypt limit).
 */
export const PASSWORD_MIN_CHARACTERS = 6;
export const PASSWORD_MAX_BYTES = 72;

/** Characters of a password: Unicode code points, not UTF-16 units or bytes. */
export function passwordCharacters(password: string): number {
  return Array.from(password).length;
}

export function passwordBytes(password: string): number {
  return new TextEncoder().encode(password).byteLength;
}

export function isPasswordTooShort(password: string): boolean {
  return passwordCharacters(password) < PASSWORD_MIN_CHARACTERS;
}

export function isPasswordTooLong(password: string): boolean {
  return passwordBytes(password) > PASSWORD_MAX_BYTES;
}
