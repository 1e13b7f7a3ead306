/**
 * The `ws` package (installed with wrangler): the browser's WebSocket API as scripts/devtools.mjs
 * uses it, plus what scripts/bench-danmaku.mjs and scripts/bench-danmaku-shards.mjs use of its
 * Node API (request headers, compression off, the upgrade answer, the EventEmitter listeners,
 * terminate).
 */
declare module "ws" {
  class WebSocket extends globalThis.WebSocket {
    constructor(url: string | URL, options?: { headers?: Record<string, string>; perMessageDeflate?: boolean });
    // A message's data is a Buffer under the default binaryType ("nodebuffer"), which the scripts keep.
    on(event: "message", listener: (data: Buffer, isBinary: boolean) => void): this;
    once(event: "message", listener: (data: Buffer, isBinary: boolean) => void): this;
    once(event: "error", listener: (error: Error) => void): this;
    on(event: "error", listener: (error: Error) => void): this;
    once(event: "upgrade", listener: (response: import("node:http").IncomingMessage) => void): this;
    /** Drops the connection at once, without the closing handshake. */
    terminate(): void;
  }
  export default WebSocket;
}
