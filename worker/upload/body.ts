/**
 * Request bodies of the media upload endpoint (./api.ts), bounded by their declared length: a body
 * is never read past its Content-Length, and one that is longer, shorter or of another MD5 than
 * declared makes the stream fail before its end reaches R2, so R2 stores nothing.
 */
import { bytesToHex } from "../../shared/deploy/checksum";

/** Why a body was refused: longer or shorter than its Content-Length, or not the declared MD5. */
export type BodyFault = "too_long" | "too_short" | "md5_mismatch";

export interface CheckedBody {
  /** The body for R2: a FixedLengthStream of the declared length (R2 needs the length up front). */
  stream: ReadableStream<Uint8Array>;
  /** The fault found, once the stream has failed (null: the body was as declared, or the failure was not ours). */
  fault(): BodyFault | null;
  /** The MD5 (hex) of the bytes, once the stream has ended. */
  md5(): Promise<string>;
}

class BodyRefused extends Error {}

/**
 * `body` checked on its way to R2 against `length` bytes and, when given, the hex MD5 `expectedMd5`.
 * A body longer than `length` fails at the first chunk past it (nothing more is read).
 */
export function checkedBody(body: ReadableStream<Uint8Array> | null, length: number, expectedMd5?: string): CheckedBody {
  let fault: BodyFault | null = null;
  let received = 0;
  // workerd's crypto.DigestStream (the DOM lib's Crypto type does not declare it).
  const digest = new (crypto as unknown as { DigestStream: typeof DigestStream }).DigestStream("MD5");
  const digestWriter = digest.getWriter();
  const md5 = digest.digest.then(bytesToHex);
  // The digest is awaited only after the body ended (a failed body never settles it).
  md5.catch(() => {});
  const refuse = (why: BodyFault): never => {
    fault = why;
    throw new BodyRefused(why);
  };
  const check = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      received += chunk.byteLength;
      if (received > length) refuse("too_long");
      await digestWriter.write(chunk);
      controller.enqueue(chunk);
    },
    async flush() {
      if (received < length) refuse("too_short");
      await digestWriter.close();
      if (expectedMd5 !== undefined && (await md5) !== expectedMd5) refuse("md5_mismatch");
    },
  });
  const source = body ?? new Response(new Uint8Array(0)).body!;
  return {
    stream: source.pipeThrough(check).pipeThrough(new FixedLengthStream(length)),
    fault: () => fault,
    md5: () => md5,
  };
}

/** The body as text, or the fault when it is longer or shorter than `length` (never read past `length`). */
export async function readBoundedText(body: ReadableStream<Uint8Array> | null, length: number): Promise<{ text: string } | { fault: BodyFault }> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  if (body) {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > length) {
        await reader.cancel();
        return { fault: "too_long" };
      }
      chunks.push(value);
    }
  }
  if (received < length) return { fault: "too_short" };
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { text: new TextDecoder().decode(bytes) };
}
