/**
 * The `ws` package (installed with wrangler): the browser's WebSocket API as scripts/devtools.mjs
 * uses it, plus what scripts/bench-danmaku.mjs uses of its Node API (request headers, and the
 * EventEmitter listeners).
 */
declare module "ws" {
  class WebSocket extends globalThis.WebSocket {
    constructor(url: string | URL, options?: { headers?: Record<string, string> });
    // A message's data is a Buffer under the default binaryType ("nodebuffer"), which the scripts keep.
    on(event: "message", listener: (data: Buffer, isBinary: boolean) => void): this;
    once(event: "message", listener: (data: Buffer, isBinary: boolean) => void): this;
    once(event: "error", listener: (error: Error) => void): this;
  }
  export default WebSocket;
}
