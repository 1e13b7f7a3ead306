// 线路 failover on the browser's own HLS player (shared/player/line-probe.ts, shouldLeaveLine in
// shared/playback/lines.ts, docs/decisions/0095-native-line-probe.md): a stalled native player
// asks its line for the segment at the playhead; a line whose segment fails (an error answer, a
// refused connection) is left at once; one that answers, or answers too slowly to tell, is not. Against a local
// HTTP server with a real master and media playlist.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shouldLeaveLine } from "../../shared/playback/lines";
import { primeLine, probeLine } from "../../shared/player/line-probe";
import { writeMasterPlaylist, writeMediaPlaylist } from "../../shared/stream/hls";

const master = writeMasterPlaylist({
  variants: [{ bandwidth: 300_000, width: 480, height: 270, codecs: ["avc1.4d401e", "mp4a.40.2"], uri: "270p.m3u8" }],
});
const media = writeMediaPlaylist({
  map: "270p-aaaaaaaa-init.mp4",
  segments: [0, 1, 2].map((i) => ({ duration: 2, uri: `270p-aaaaaaaa-0000${i}.m4s` })),
});

/** Each line's behaviour: "ok", "fail" (503 for segments), "hang" (segments never answer), "garbage" (not a playlist). */
type Mode = "ok" | "fail" | "hang" | "garbage";
const asked: string[] = [];
let server: Server;
let base = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    const [, mode, name] = /^\/(\w+)\/(.+)$/.exec(req.url ?? "") ?? [];
    asked.push(`${mode}/${name} ${req.headers.range ?? ""}`.trim());
    if (name === "master.m3u8") return res.end(mode === "garbage" ? "<html>" : master);
    if (name === "270p.m3u8") return res.end(media);
    if ((mode as Mode) === "hang") return; // never answers
    if ((mode as Mode) === "fail") return res.writeHead(503).end();
    res.writeHead(206, { "Content-Range": "bytes 0-0/1000" }).end("x");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("probeLine", () => {
  it("asks for the first byte of the segment at the playhead, and a line that serves it is not failing", async () => {
    asked.length = 0;
    expect(await probeLine(`${base}/ok/master.m3u8`, 3.5)).toBe(false);
    expect(asked).toEqual(["ok/master.m3u8", "ok/270p.m3u8", "ok/270p-aaaaaaaa-00001.m4s bytes=0-0"]);
  });

  it("a segment answered with an error, or a refused connection: failing", async () => {
    expect(await probeLine(`${base}/fail/master.m3u8`, 0)).toBe(true);
    expect(await probeLine("http://127.0.0.1:9/ok/master.m3u8", 0)).toBe(true);
  });

  it("no answer in time is no verdict (a slow link shared with the player's own downloads): not failing", async () => {
    expect(await probeLine(`${base}/hang/master.m3u8`, 5, 300)).toBe(false);
  });

  it("a playlist that is not HLS is not this check's business", async () => {
    expect(await probeLine(`${base}/garbage/master.m3u8`, 0)).toBe(false);
  });
});

describe("primeLine", () => {
  it("reads the line's playlists once it plays, so the probe at a stall is one request: the segment's first byte", async () => {
    asked.length = 0;
    await primeLine(`${base}/primed/master.m3u8`);
    expect(asked).toEqual(["primed/master.m3u8", "primed/270p.m3u8"]);
    asked.length = 0;
    expect(await probeLine(`${base}/primed/master.m3u8`, 3.5)).toBe(false);
    expect(asked).toEqual(["primed/270p-aaaaaaaa-00001.m4s bytes=0-0"]);
  });

  it("primed, a healthy line whose segment is slow to answer is still no verdict (no switch); a failing one is failing", async () => {
    await primeLine(`${base}/hang/master.m3u8`);
    expect(await probeLine(`${base}/hang/master.m3u8`, 5, 300)).toBe(false);
    expect(shouldLeaveLine({ fatal: false, stalledMs: 300, networkErrors: 0, online: true, hasNext: true, probeFailed: false })).toBe(false);
    await primeLine(`${base}/fail/master.m3u8`);
    expect(await probeLine(`${base}/fail/master.m3u8`, 5)).toBe(true);
  });

  it("a line that cannot be read says nothing (the probe reads it itself later)", async () => {
    await expect(primeLine("http://127.0.0.1:9/down/master.m3u8")).resolves.toBeUndefined();
  });
});

describe("shouldLeaveLine with a probe", () => {
  const stalled = { fatal: false, stalledMs: 250, networkErrors: 0, online: true, hasNext: true };

  it("a failed probe leaves at once; without it a stall waits for the longer rule", () => {
    expect(shouldLeaveLine(stalled)).toBe(false);
    expect(shouldLeaveLine({ ...stalled, probeFailed: false })).toBe(false);
    expect(shouldLeaveLine({ ...stalled, probeFailed: true })).toBe(true);
  });

  it("never offline, never without a stall, never without another line", () => {
    expect(shouldLeaveLine({ ...stalled, probeFailed: true, online: false })).toBe(false);
    expect(shouldLeaveLine({ ...stalled, probeFailed: true, stalledMs: 0 })).toBe(false);
    expect(shouldLeaveLine({ ...stalled, probeFailed: true, hasNext: false })).toBe(false);
  });
});
