import { readBoundedBody } from "../read-body";

/** Largest body accepted on /api/auth/*. */
export const MAX_AUTH_BODY_BYTES = 16 * 1024;

export type BodyResult =
  | { ok: true; form: boolean; value: Record<string, unknown> }
  | { ok: false; status: 400 | 413 | 415; code: "bad_json" | "payload_too_large" | "unsupported_media_type" };

/**
 * Reads a JSON object (fetch from the page) or an urlencoded form (the
 * no-JavaScript form), refusing anything else, anything over 16 KB, and
 * malformed or non-UTF-8 content, with a 4xx that says which.
 */
export async function readAuthBody(request: Request): Promise<BodyResult> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  const form = type === "application/x-www-form-urlencoded";
  if (type !== "application/json" && !form) return { ok: false, status: 415, code: "unsupported_media_type" };
  const bytes = await readBoundedBody(request, MAX_AUTH_BODY_BYTES);
  if (bytes === null) return { ok: false, status: 413, code: "payload_too_large" };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, status: 400, code: "bad_json" };
  }
  if (form) return { ok: true, form, value: Object.fromEntries(new URLSearchParams(text)) };
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return { ok: false, status: 400, code: "bad_json" };
    return { ok: true, form, value: value as Record<string, unknown> };
  } catch {
    return { ok: false, status: 400, code: "bad_json" };
  }
}

/** Email and password from a body; trimmed email, password as typed. */
export function credentialsOf(value: Record<string, unknown>): { email: string; password: string } {
  const email = typeof value.email === "string" ? value.email.trim().slice(0, 320) : "";
  const password = typeof value.password === "string" ? value.password.slice(0, 1024) : "";
  return { email, password };
}
