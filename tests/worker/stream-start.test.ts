import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getVideo } from "../../scripts/catalogue/titles";
import { streamStartLinkHeader } from "../../shared/playback/stream-start";
import { callRead } from "./helpers/visitor";

/**
 * A page with a player preloads the player's first two playlists from its response headers
 * (shared/playback/stream-start.ts; docs/decisions/0055-stream-start-preloads.md), and from its HTML.
 */
const BASE = "https://stream-start.test";
const film = getVideo("video_001")!;
const series = getVideo("video_003")!;

async function get(path: string) {
  const res = await SELF.fetch(BASE + path, { redirect: "manual" });
  return { res, html: await res.text() };
}

const htmlPreloads = (html: string) => [...html.matchAll(/<link rel="preload" href="([^"]+\.m3u8)" as="fetch"[^>]*>/g)].map((m) => m[1]);

describe("stream start preloads", () => {
  it("a film's page: a Link header with its master and 270p playlists, and the same two <link rel=preload>", async () => {
    const { res, html } = await get("/video/video_001");
    expect(res.status).toBe(200);
    expect(res.headers.get("Link")).toBe(streamStartLinkHeader(film, 1, null));
    expect(res.headers.get("Link")).toContain("</stream/1/master.m3u8>; rel=preload; as=fetch; crossorigin");
    expect(res.headers.get("Link")).toContain("</stream/1/270p.m3u8>; rel=preload; as=fetch; crossorigin");
    expect(htmlPreloads(html)).toEqual(["/stream/1/master.m3u8", "/stream/1/270p.m3u8"]);
  });

  it("an episode's page preloads that episode's stream", async () => {
    const { res, html } = await get("/video/video_003/2");
    expect(res.status).toBe(200);
    expect(res.headers.get("Link")).toBe(streamStartLinkHeader(series, 2, null));
    expect(res.headers.get("Link")).toContain("</stream/10302/270p.m3u8>");
    expect(htmlPreloads(html)).toEqual(["/stream/10302/master.m3u8", "/stream/10302/270p.m3u8"]);
  });

  it("the page cache keeps the header", async () => {
    // The edge cache's copy is written in waitUntil: callRead returns once that has finished.
    const first = await callRead("GET", "/video/video_002", { base: BASE });
    expect(first.res.headers.get("X-Cache")).toBe("MISS");
    const { res } = await callRead("GET", "/video/video_002", { base: BASE });
    expect(res.headers.get("X-Cache")).toBe("HIT");
    expect(res.headers.get("Link")).toBe(streamStartLinkHeader(getVideo("video_002")!, 1, null));
  });

  it("none where the page plays the MP4, on a missing title, or on pages without a player", async () => {
    const progressive = await get("/video/video_001?engine=progressive");
    expect(progressive.res.headers.get("Link")).toBeNull();
    expect(htmlPreloads(progressive.html)).toEqual([]);
    for (const path of ["/video/no_such_video", "/", "/category/all", "/search?q=爱"]) {
      const { res } = await get(path);
      expect(res.headers.get("Link"), path).toBeNull();
    }
  });
});
