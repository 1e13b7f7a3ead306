/**
 * Request bodies of the account API (/api/auth/*) and the embedded account service (/auth/v1/*):
 * at most MAX_BODY_BYTES, enforced by hono's bodyLimit middleware (declared or streamed size),
 * then decoded as strict UTF-8 into a JSON object or an urlencoded form.
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

export const MAX_BODY_BYTES = 16 * 1024;

/** The body-size middleware; `tooLarge` answers a body over MAX_BODY_BYTES in the caller's shape. */
export function limitBody(tooLarge: (c: Context) => Response): MiddlewareHandler {
  return bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge });
}

export type BodyObject = Record<string, unknown>;

/** The body as a JSON object, or null when it is not valid UTF-8 JSON of an object. */
export async function readJsonObject(request: Request): Promise<BodyObject | null> {
  const text = await readUtf8(request);
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as BodyObject) : null;
  } catch {
    return null;
  }
}

/** The body as an urlencoded form, or null when it is not valid UTF-8. */
export async function readForm(request: Request): Promise<BodyObject | null> {
  const text = await readUtf8(request);
  return text === null ? null : Object.fromEntries(new URLSearchParams(text));
}

async function readUtf8(request: Request): Promise<string | null> {
  const bytes = await request.arrayBuffer();
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
