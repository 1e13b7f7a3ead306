/** Request-body parsing and input validation, with GoTrue's error codes and messages. */
import { badJson, requestTooLarge, validationFailed, weakPassword } from "./errors";
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH, passwordByteLength, passwordLength } from "./password";
import type { Metadata } from "./users";
import { readBoundedBody } from "../read-body";

export const MAX_BODY_BYTES = 16 * 1024;

export type JsonObject = Record<string, unknown>;

/** Reads at most MAX_BODY_BYTES and parses a JSON object (413 / 400 bad_json otherwise). */
export async function readJsonObject(request: Request): Promise<JsonObject> {
  const bytes = await readBoundedBody(request, MAX_BODY_BYTES);
  if (bytes === null) throw requestTooLarge(MAX_BODY_BYTES);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw badJson();
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw badJson();
  return value as JsonObject;
}

/** A string field; absent or null → undefined; any other type → 400 bad_json (as Go's decoder). */
export function stringField(body: JsonObject, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw badJson();
  return value;
}

/** An object field; absent or null → undefined; any other type → 400 bad_json. */
export function objectField(body: JsonObject, name: string): Metadata | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw badJson();
  return value as Metadata;
}

/** Max 72 UTF-8 bytes (400 validation_failed), min 6 characters (422 weak_password). */
export function checkPasswordStrength(password: string): void {
  if (passwordByteLength(password) > PASSWORD_MAX_BYTES) {
    throw validationFailed(`Password cannot be longer than ${PASSWORD_MAX_BYTES} characters`);
  }
  if (passwordLength(password) < PASSWORD_MIN_LENGTH) throw weakPassword(PASSWORD_MIN_LENGTH);
}

// The format check GoTrue uses (badoux/checkmail ValidateFormat).
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Validates and lower-cases an e-mail address (400 validation_failed otherwise). */
export function validateEmail(email: string | undefined): string {
  if (!email) throw validationFailed("An email address is required");
  if (email.length > 255) throw validationFailed("An email address is too long");
  if (!EMAIL_PATTERN.test(email)) throw validationFailed("Unable to validate email address: invalid format");
  return email.toLowerCase();
}
