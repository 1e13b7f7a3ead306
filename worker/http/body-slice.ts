/**
 * Byte slices of a streamed body, for Range answers from a whole representation (a cached
 * copy, or the whole object just read from R2) without holding it in memory.
 */

/**
 * The bytes `start..end` (inclusive) of `body`, as a stream of known length (workerd's
 * FixedLengthStream, so the response carries a real Content-Length, never chunked).
 * Bytes before `start` are read and dropped; the source is cancelled once `end` is passed.
 *
 * @example
 * new Response(sliceBody(cached.body, 100, 199)) // 100 bytes
 */
export function sliceBody(body: ReadableStream<Uint8Array>, start: number, end: number): ReadableStream<Uint8Array> {
  let position = 0;
  const slicer = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const chunkStart = position;
      position += chunk.byteLength;
      if (position <= start) return;
      const from = Math.max(0, start - chunkStart);
      const to = Math.min(chunk.byteLength, end + 1 - chunkStart);
      if (to > from) controller.enqueue(chunk.subarray(from, to));
      // Everything wanted has passed: close our side; the pipe cancels the source.
      if (position > end) controller.terminate();
    },
  });
  return withLength(body.pipeThrough(slicer), end - start + 1);
}

/** `body` as a stream of the given length (the runtime checks it and sends Content-Length). */
export function withLength(body: ReadableStream<Uint8Array>, length: number): ReadableStream<Uint8Array> {
  return body.pipeThrough(new FixedLengthStream(length));
}
