/**
 * Plain-text answers of the file routes (`/N.mp4`, `/N.webp`, `/stream/…`) when there is no
 * representation to send (404, 405, 503): never cached, never sniffed, with a Chinese message
 * a viewer can read. A 416 is an answer about a representation: ./representation.ts.
 */

/** The message of a 503 when R2 (or the cache in front of it) fails. */
export const MEDIA_UNAVAILABLE = "媒体服务暂时不可用，请稍后重试";

/** Seconds a client should wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 30;

export function textResponse(status: number, body: string, extra: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      ...extra,
    },
  });
}

export const notFound = (): Response => textResponse(404, "未找到");

/** 503 after an R2 error, which is logged with the key it concerns. */
export function unavailable(err: unknown, key: string, retryAfterSeconds = RETRY_AFTER_SECONDS): Response {
  console.error(`media: R2 error for ${key}:`, err);
  return textResponse(503, MEDIA_UNAVAILABLE, { "Retry-After": String(retryAfterSeconds) });
}
