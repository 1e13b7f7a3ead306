/** The `ws` package (installed with wrangler) as scripts/devtools.mjs uses it: the browser's WebSocket API. */
declare module "ws" {
  const WebSocket: typeof globalThis.WebSocket;
  export default WebSocket;
}
