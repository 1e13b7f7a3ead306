// 投屏 (docs/decisions/0105-cast.md): the screen fetches what the player hands it from its own
// origin (a Chromecast's receiver page, an Apple TV, a TV-box app): the progressive MP4 and the HLS
// files answer any origin, byte ranges included, and are not held to CORP same-origin; pages and
// covers keep it.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { call, callRead } from "./helpers/visitor";

/** A receiver's origin (Google's Default Media Receiver is served from there). */
const RECEIVER = "https://www.gstatic.com";
const MP4 = new Uint8Array(4096).map((_, i) => i % 251);

beforeAll(async () => {
  await env.MEDIA.put("1.mp4", MP4);
  await env.MEDIA.put("stream/1/master.m3u8", "#EXTM3U\n#EXT-X-VERSION:7\n");
});

describe("what a 投屏 receiver fetches", () => {
  it("the progressive MP4 answers any origin, whole and by range, CORP cross-origin, with the headers a player reads", async () => {
    const whole = await callRead("GET", "/1.mp4", { headers: { Origin: RECEIVER } });
    expect(whole.res.status).toBe(200);
    expect(whole.res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(whole.res.headers.get("Cross-Origin-Resource-Policy")).toBe("cross-origin");

    const part = await call("GET", "/1.mp4", { headers: { Origin: RECEIVER, Range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(part.headers.get("Access-Control-Expose-Headers")?.split(/,\s*/)).toEqual(
      expect.arrayContaining(["Content-Range", "Content-Length", "Accept-Ranges"]),
    );
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(MP4.slice(100, 200));
  });

  it("a receiver's preflight for a range request is answered without the file", async () => {
    const res = await call("OPTIONS", "/1.mp4", {
      headers: { Origin: RECEIVER, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "range" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain("range");
  });

  it("the master playlist answers any origin too; covers and pages stay same-origin", async () => {
    const master = await call("GET", "/stream/1/master.m3u8", { headers: { Origin: RECEIVER } });
    expect(master.status).toBe(200);
    expect(master.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(master.headers.get("Cross-Origin-Resource-Policy")).toBe("cross-origin");
    await master.arrayBuffer();
    for (const path of ["/1.webp", "/"]) {
      const res = await call("GET", path, { headers: { Origin: RECEIVER } });
      expect(res.headers.get("Cross-Origin-Resource-Policy"), path).toBe("same-origin");
      expect(res.headers.get("Access-Control-Allow-Origin"), path).toBeNull();
      await res.arrayBuffer();
    }
  });
});
