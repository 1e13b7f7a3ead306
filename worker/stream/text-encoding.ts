/**
 * The text files of the streaming contract (playlists, WebVTT) go out compressed (brotli or gzip)
 * to clients that accept it. A real title's media playlist lists one segment every 2 s: ~130 KB
 * of text for two hours, on the start path of every player (master, then the start rendition's
 * playlist, before the first segment) — 1.4 s of a 3G link; 9 KB with gzip, 4 KB with brotli.
 * Cloudflare compresses none of these types by itself (and `no-transform` asks it not to touch
 * them), so the worker asks the runtime to: a response whose `Content-Encoding` is gzip or br is
 * compressed by workerd as it is sent (the Workers default, `encodeBody: "automatic"`).
 * Docs: docs/streaming.md ("Compression").
 *
 * - Only a whole answer (200, or the headers of a HEAD) is encoded; a byte range (206) is not. A
 *   Range header means the client counts bytes of the file itself: identity.
 * - The edge cache keeps the identity bytes (one entry per URL); each answer is encoded on its way out.
 * - `Vary: Accept-Encoding` on every text answer, and a weak ETag on an encoded one (the same
 *   validator would otherwise name two different byte sequences); If-None-Match compares weakly,
 *   so revalidation works with either.
 */

/** The content codings the worker sends text in, the preferred first on a tie. */
export type TextEncoding = "br" | "gzip";

/**
 * The coding to send a text file in for this Accept-Encoding (RFC 9110 §12.5.3): brotli or gzip,
 * whichever has the higher q-value above 0 (`*` stands for either when not named; brotli on a
 * tie: a third smaller again on playlists), or null for the file as it is.
 */
export function textEncodingFor(acceptEncoding: string | null): TextEncoding | null {
  if (!acceptEncoding) return null;
  const q: Partial<Record<TextEncoding | "*", number>> = {};
  for (const part of acceptEncoding.split(",")) {
    const [token = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith("q="));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    const weight = Number.isFinite(value) ? value : 0;
    const coding = token === "x-gzip" ? "gzip" : token;
    if (coding === "br" || coding === "gzip" || coding === "*") q[coding] = Math.max(q[coding] ?? 0, weight);
  }
  const br = q.br ?? q["*"] ?? 0;
  const gzip = q.gzip ?? q["*"] ?? 0;
  if (br <= 0 && gzip <= 0) return null;
  return br >= gzip ? "br" : "gzip";
}

/** An entity tag as a weak one (`W/"…"`); a weak one stays as it is. */
export function weakETag(etag: string): string {
  return etag.startsWith("W/") ? etag : `W/${etag}`;
}

/**
 * The Accept-Encoding of the client itself. Cloudflare's front line (and Miniflare, which
 * imitates it) hands the worker `Accept-Encoding: br, gzip` whatever the client sent and keeps
 * the client's own value in `request.cf.clientAcceptEncoding`; it re-encodes for the client only
 * the content types it compresses itself, which playlists and WebVTT are not.
 */
export function clientAcceptEncoding(request: Request): string | null {
  const cf = (request as Request & { cf?: { clientAcceptEncoding?: unknown } }).cf;
  return typeof cf?.clientAcceptEncoding === "string" ? cf.clientAcceptEncoding : request.headers.get("Accept-Encoding");
}

/** `response` (an answer for a text file of the contract) as sent to `request`'s client. */
export function encodeTextAnswer(request: Request, response: Response): Response {
  const answer = new Response(response.body, response);
  answer.headers.append("Vary", "Accept-Encoding");
  const wholeFile = (request.method === "GET" || request.method === "HEAD") && !request.headers.has("Range");
  const encoding = wholeFile ? textEncodingFor(clientAcceptEncoding(request)) : null;
  if (!encoding || (response.status !== 200 && response.status !== 304)) return answer;
  // A 304 names the validator the 200 would have carried: the encoded answer's.
  const etag = answer.headers.get("ETag");
  if (etag) answer.headers.set("ETag", weakETag(etag));
  if (response.status === 200) {
    answer.headers.set("Content-Encoding", encoding);
    answer.headers.delete("Content-Length");
  }
  return answer;
}
