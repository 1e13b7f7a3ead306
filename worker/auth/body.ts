import { readForm, readJsonObject } from "../request-body";

export type BodyResult =
  { ok: true; form: boolean; value: Record<string, unknown> } | { ok: false; status: 400 | 415; code: "bad_json" | "unsupported_media_type" };

/**
 * Reads a JSON object (fetch from the page) or an urlencoded form (the no-JavaScript form),
 * refusing anything else and malformed or non-UTF-8 content with a 4xx that says which. The
 * size was limited before (worker/request-body.ts, 413 payload_too_large).
 */
export async function readAuthBody(request: Request): Promise<BodyResult> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  const form = type === "application/x-www-form-urlencoded";
  if (type !== "application/json" && !form) return { ok: false, status: 415, code: "unsupported_media_type" };
  const value = form ? await readForm(request) : await readJsonObject(request);
  return value ? { ok: true, form, value } : { ok: false, status: 400, code: "bad_json" };
}

/** A string field of a body, trimmed and bounded; "" when absent. */
export function textField(value: Record<string, unknown>, name: string, max = 320): string {
  return typeof value[name] === "string" ? value[name].trim().slice(0, max) : "";
}

/** Email and password from a body; trimmed email, password as typed. */
export function credentialsOf(value: Record<string, unknown>): { email: string; password: string } {
  const password = typeof value.password === "string" ? value.password.slice(0, 1024) : "";
  return { email: textField(value, "email"), password };
}
