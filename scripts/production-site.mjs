// @ts-check
/**
 * The site served the way production serves it, as far as page-load figures depend on it (the
 * video benchmark, scripts/bench-video/): the worker bundled for deploy in one workerd process
 * (scripts/site-snapshot.mjs) behind a local front that does what Cloudflare's edge does between
 * the worker and a browser —
 *   - HTTPS with HTTP/2 (one connection, multiplexed: no six-connections-per-host queue),
 *   - compression of the content types Cloudflare compresses (brotli, else gzip, chosen by the
 *     request's Accept-Encoding; only 200/403/404 responses, never a response that says
 *     `Cache-Control: no-transform` — the /stream/ files do — nor one already encoded; streamed
 *     responses are flushed chunk by chunk, so streamed HTML arrives as it is rendered);
 *   - HTTP/2 responses of a connection scheduled by the browser's RFC 9218 priorities, as
 *     Cloudflare schedules them (scripts/edge-priority.mjs): the stylesheet before the scripts,
 *     the scripts before images and media;
 *   - WebSocket upgrades (HTTP/1.1) passed through to the worker;
 * and, on request, the visitor's link: `setLink(profile)` puts every later connection behind one
 * shared bottleneck of that bandwidth and round trip (scripts/throttle.mjs) until the next call.
 * What still differs from production is listed in docs/performance.md (video playback).
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { siteSnapshot, startMiniflare } from "./site-snapshot.mjs";
import { parsePriority, PriorityScheduler } from "./edge-priority.mjs";
import { createLink, throttled } from "./throttle.mjs";

/** The content types Cloudflare compresses for visitors (developers.cloudflare.com, speed › content compression). */
const COMPRESSIBLE = new Set(
  (
    "text/html text/richtext text/plain text/css text/x-script text/x-component text/x-java-source text/x-markdown application/javascript " +
    "application/x-javascript text/javascript text/js image/x-icon image/vnd.microsoft.icon application/x-perl application/x-httpd-cgi text/xml " +
    "application/xml application/rss+xml application/vnd.api+json application/x-protobuf application/json multipart/bag multipart/mixed " +
    "application/xhtml+xml font/ttf font/otf font/x-woff image/svg+xml application/vnd.ms-fontobject application/ttf application/x-ttf " +
    "application/otf application/x-otf application/truetype application/opentype application/x-opentype application/font-woff application/eot " +
    "application/font application/font-sfnt application/wasm application/javascript-binast application/manifest+json application/ld+json " +
    "application/graphql+json application/geo+json"
  ).split(" "),
);

/** Brotli quality and gzip level of on-the-fly compression (a middle setting: Cloudflare does not publish its own). */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;

/** Headers of one hop that the front neither forwards nor returns. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer", "http2-settings", "host"]);

/**
 * The encoding the front sends for this response, or null.
 * @param {number} status
 * @param {http.IncomingHttpHeaders} headers  the worker's response headers
 * @param {string} acceptEncoding
 * @param {string} method
 * @returns {"br" | "gzip" | null}
 */
export function edgeEncoding(status, headers, acceptEncoding, method) {
  if (method === "HEAD" || ![200, 403, 404].includes(status) || headers["content-encoding"]) return null;
  if (/(^|,)\s*no-transform\s*(,|$)/i.test(String(headers["cache-control"] ?? ""))) return null;
  const type = String(headers["content-type"] ?? "")
    .split(";")[0]
    .trim()
    .toLowerCase();
  if (!COMPRESSIBLE.has(type)) return null;
  const accepted = acceptEncoding
    .toLowerCase()
    .split(",")
    .map((part) => part.split(";")[0].trim());
  if (accepted.includes("br")) return "br";
  if (accepted.includes("gzip")) return "gzip";
  return null;
}

/** @param {"br" | "gzip"} encoding */
function compressor(encoding) {
  return encoding === "br"
    ? zlib.createBrotliCompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })
    : zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH, level: GZIP_LEVEL });
}

/** A throwaway self-signed certificate for 127.0.0.1 (the browser is told to accept it). */
function certificate() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "yingshi-cert-"));
  try {
    const res = spawnSync(
      "openssl",
      ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1"].concat([
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
      ]),
      { encoding: "utf8" },
    );
    if (res.status !== 0) throw new Error(`openssl could not make a certificate: ${res.stderr}`);
    return { key: fs.readFileSync(path.join(dir, "key.pem")), cert: fs.readFileSync(path.join(dir, "cert.pem")) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts the production-like site on https://127.0.0.1:`port` (HTTP/2; the worker itself on
 * http://127.0.0.1:`port + 1`, `originURL`). Build the client first (vite build).
 * @param {{ port: number, state: string }} options  state: the local state to serve (a --persist-to directory)
 */
export async function startProductionSite({ port, state }) {
  const snapshot = siteSnapshot({ ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", FORCE_COLOR: "0", NODE_ENV: "production" });
  const originPort = port + 1;
  const { mf } = await startMiniflare(snapshot, { port: originPort, state });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  /** @type {WeakMap<http2.Http2Session, PriorityScheduler>} */
  const schedulers = new WeakMap();
  /** The connection a request came on, numbered in order (FRONT_LOG_PRIORITY). @type {WeakMap<object, number>} */
  const connections = new WeakMap();
  let connectionCount = 0;
  /** @param {http2.Http2ServerRequest | http.IncomingMessage} req */
  const connectionNumber = (req) => {
    const key = "stream" in req ? req.stream.session : req.socket;
    if (!key) return 0;
    if (!connections.has(key)) connections.set(key, ++connectionCount);
    return connections.get(key) ?? 0;
  };
  /** @param {http2.Http2ServerRequest | http.IncomingMessage} req */
  const schedulerOf = (req) => {
    const session = "stream" in req ? req.stream.session : undefined;
    if (!session) return null;
    let scheduler = schedulers.get(session);
    if (!scheduler) schedulers.set(session, (scheduler = new PriorityScheduler()));
    return scheduler;
  };

  /**
   * @param {http2.Http2ServerRequest | http.IncomingMessage} req
   * @param {http2.Http2ServerResponse | http.ServerResponse} res
   */
  const handle = (req, res) => {
    /** @type {http.OutgoingHttpHeaders} */
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) if (!name.startsWith(":") && !HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
    headers.host = `127.0.0.1:${port}`;
    // The worker sees the visitor's https URL, as behind Cloudflare (Miniflare reads this header):
    // same-origin checks (the 弹幕 socket, POSTs) compare the browser's Origin with it.
    headers["mf-original-url"] = `https://127.0.0.1:${port}${req.url ?? "/"}`;
    const upstream = http.request({ host: "127.0.0.1", port: originPort, method: req.method, path: req.url, headers, agent }, (answer) => {
      const status = answer.statusCode ?? 502;
      /** @type {http.OutgoingHttpHeaders} */
      const out = {};
      for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
      const encoding = edgeEncoding(status, answer.headers, String(req.headers["accept-encoding"] ?? ""), req.method ?? "GET");
      if (encoding) {
        delete out["content-length"];
        out["content-encoding"] = encoding;
        out.vary = out.vary ? `${out.vary}, Accept-Encoding` : "Accept-Encoding";
      }
      res.writeHead(status, out);
      const body = encoding ? answer.pipe(compressor(encoding)) : answer;
      const scheduler = schedulerOf(req);
      if (process.env.FRONT_LOG_PRIORITY)
        console.log(`front: ${req.url} priority ${String(req.headers.priority ?? "(none)")} connection ${connectionNumber(req)}`);
      if (scheduler) scheduler.add(/** @type {http2.Http2ServerResponse} */ (res), parsePriority(req.headers.priority), body);
      else body.pipe(/** @type {NodeJS.WritableStream} */ (res));
    });
    upstream.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`front: ${error.message}`);
    });
    req.pipe(upstream);
  };

  const tls = certificate();
  const server = http2.createSecureServer({ ...tls, allowHTTP1: true }, handle);
  // WebSocket (弹幕): the upgrade request and then the bytes both ways, as they are.
  server.on("upgrade", (/** @type {http.IncomingMessage} */ req, /** @type {import("node:stream").Duplex} */ socket, /** @type {Buffer} */ head) => {
    const upstream = net.connect(originPort, "127.0.0.1", () => {
      const lines = [`${req.method ?? "GET"} ${req.url ?? "/"} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i].toLowerCase() === "host" ? `127.0.0.1:${port}` : req.rawHeaders[i + 1]}`);
      lines.push(`MF-Original-URL: https://127.0.0.1:${port}${req.url ?? "/"}`);
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  /** @type {import("./throttle.mjs").Link | null} */
  let link = null;
  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  // The TCP listener: each connection goes to the TLS server as it is, or through the current link.
  const listener = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.setNoDelay(true);
    server.emit("connection", link ? throttled(socket, link) : socket);
  });
  await new Promise((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(port, "127.0.0.1", () => resolve(undefined));
  });
  return {
    baseURL: `https://127.0.0.1:${port}`,
    originURL: `http://127.0.0.1:${originPort}`,
    /**
     * The front certificate's public key, as Chromium's `--ignore-certificate-errors-spki-list`
     * takes it (base64 of the SHA-256 of its SubjectPublicKeyInfo): a browser given it trusts the
     * front as a valid certificate, so its HTTP cache keeps responses (it stores nothing fetched
     * with a certificate error, which `--ignore-certificate-errors` only lets through).
     */
    spki: crypto
      .createHash("sha256")
      .update(new crypto.X509Certificate(tls.cert).publicKey.export({ type: "spki", format: "der" }))
      .digest("base64"),
    /**
     * Connections opened from now on share one new link of this profile (null: no throttling).
     * Returns the link (its `bytesDown` counts what went through it).
     * @param {import("./throttle.mjs").LinkProfile | null} profile
     */
    setLink: (profile) => {
      link = profile ? createLink(profile) : null;
      return link;
    },
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => listener.close(() => resolve(undefined)));
      agent.destroy();
      await mf.dispose();
      fs.rmSync(snapshot, { recursive: true, force: true });
    },
  };
}
