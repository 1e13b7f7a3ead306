/**
 * One member's own phone link for the 一起看 bench (scripts/bench-watch/run.ts): a local HTTP
 * CONNECT proxy that a browser context is pointed at, whose every tunnel goes through one shared
 * bottleneck of the link's bandwidth and round trip (scripts/throttle.mjs, the model the bench
 * front uses) on its way to the front. The front's own `setLink` puts every connection of every
 * page behind a single link — right for one viewer, wrong for ten people in ten places — so each
 * member gets a proxy of its own and the front runs unthrottled. The TLS session is the browser's
 * with the front (the proxy only tunnels bytes), so the page's origin stays the front's.
 */
import net from "node:net";
import { createLink, throttled, type LinkProfile } from "../throttle.mjs";

export interface LinkProxy {
  /** For `browser.newContext({ proxy: { server } })`. */
  server: string;
  /** Bytes sent down the link so far. */
  bytesDown(): number;
  close(): Promise<void>;
}

const HEADER_END = "\r\n\r\n";

/** Starts a proxy on a free port of 127.0.0.1 that tunnels CONNECT requests to 127.0.0.1 only. */
export async function startLinkProxy(profile: LinkProfile): Promise<LinkProxy> {
  const link = createLink(profile);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    client.setNoDelay(true);
    let head = Buffer.alloc(0);
    const onHead = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf(HEADER_END);
      if (end < 0) {
        if (head.length > 8192) client.destroy();
        return;
      }
      client.off("data", onHead);
      client.pause();
      const match = /^CONNECT (127\.0\.0\.1|localhost):(\d+) HTTP\/1\.[01]\r\n/.exec(head.subarray(0, end).toString("latin1"));
      if (!match) {
        client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
        return;
      }
      const rest = head.subarray(end + HEADER_END.length);
      const upstream = net.connect(Number(match[2]), "127.0.0.1", () => {
        upstream.setNoDelay(true);
        // From here on the client's bytes (its TLS) cross the link both ways; the proxy's answer too.
        const linked = throttled(client, link);
        linked.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (rest.length > 0) upstream.write(rest);
        linked.pipe(upstream);
        upstream.pipe(linked);
        client.resume();
      });
      sockets.add(upstream);
      upstream.on("close", () => {
        sockets.delete(upstream);
        client.destroy();
      });
      upstream.on("error", () => client.destroy());
      client.on("close", () => upstream.destroy());
    };
    client.on("data", onHead);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    bytesDown: () => link.bytesDown,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
