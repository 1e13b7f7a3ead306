/** Request fields and input validation of the account service, with GoTrue's error codes and messages. */
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_CHARACTERS, isPasswordTooLong, isPasswordTooShort } from "../../shared/password-rules";
import { readJsonObject as readObject, type BodyObject } from "../request-body";
import { badJson, validationFailed, weakPassword } from "./errors";
import type { Metadata } from "./users";

export type JsonObject = BodyObject;

/** The body as a JSON object (400 bad_json otherwise); its size was limited by the app's bodyLimit. */
export async function readJsonObject(request: Request): Promise<JsonObject> {
  const value = await readObject(request);
  if (!value) throw badJson();
  return value;
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

/** shared/password-rules.ts: max 72 UTF-8 bytes (400 validation_failed), min 6 characters (422 weak_password). */
export function checkPasswordStrength(password: string): void {
  if (isPasswordTooLong(password)) throw validationFailed(`Password cannot be longer than ${PASSWORD_MAX_BYTES} characters`);
  if (isPasswordTooShort(password)) throw weakPassword(PASSWORD_MIN_CHARACTERS);
}

// The format check GoTrue uses (badoux/checkmail ValidateFormat).
const EMAIL_PATTERN = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Validates and lower-cases an e-mail address (400 validation_failed otherwise). */
export function validateEmail(email: string | undefined): string {
  if (!email) throw validationFailed("An email address is required");
  if (email.length > 255) throw validationFailed("An email address is too long");
  if (!EMAIL_PATTERN.test(email)) throw validationFailed("Unable to validate email address: invalid format");
  return email.toLowerCase();
}
