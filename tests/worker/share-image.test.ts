// The link-preview image of a ?t= share link (docs/decisions/0098-share-frame.md): the page's
// og:image and twitter:image point at /share-image/{id}?t=…, which answers the packed frame
// nearest to t (long edge cache), or a redirect to the cover for a title packed without frames.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, callRead } from "./helpers/visitor";

const metaContent = (html: string, attr: string, name: string) =>
  new RegExp(`<meta ${attr}="${name}" content="([^"]*)"`).exec(html)?.[1]?.replaceAll("&amp;", "&") ?? null;

beforeAll(async () => {
  // video_001: /1.mp4, 02:08:40 (frames 0–771); video_003 episode 2: /10302.mp4, 45:00.
  await env.MEDIA.put("stream/1/frame-00012.jpg", "frame 12 of title 1", { httpMetadata: { contentType: "image/jpeg" } });
  await env.MEDIA.put("stream/1/frame-00771.jpg", "last frame of title 1", { httpMetadata: { contentType: "image/jpeg" } });
  await env.MEDIA.put("stream/10302/frame-00060.jpg", "frame 60 of 10302", { httpMetadata: { contentType: "image/jpeg" } });
});

describe("the og:image of a ?t= link", () => {
  it("is the moment's frame route (absolute), the cover without t", async () => {
    const { text } = await callRead("GET", "/video/video_001?t=123");
    expect(metaContent(text, "property", "og:image")).toMatch(/^https?:\/\/[^/]+\/share-image\/video_001\?t=123$/);
    expect(metaContent(text, "name", "twitter:image")).toMatch(/^https?:\/\/[^/]+\/share-image\/video_001\?t=123$/);
    expect(metaContent(text, "property", "og:title")).toMatch(/^雾港来信 - /); // the title stays
    const plain = await callRead("GET", "/video/video_001");
    expect(metaContent(plain.text, "property", "og:image")).toMatch(/\/1\.webp$/);
    const bad = await callRead("GET", "/video/video_001?t=abc");
    expect(metaContent(bad.text, "property", "og:image")).toMatch(/\/1\.webp$/);
  });

  it("names the episode of an episode's link", async () => {
    const { text } = await callRead("GET", "/video/video_003/2?t=600");
    expect(metaContent(text, "property", "og:image")).toMatch(/\/share-image\/video_003\?t=600&e=2$/);
  });
});

describe("GET /share-image/{id}", () => {
  it("answers the nearest frame, cached long", async () => {
    const { res, text } = await callRead("GET", "/share-image/video_001?t=123");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/jpeg");
    expect(res.headers.get("Cache-Control")).toContain("s-maxage=604800");
    expect(text).toBe("frame 12 of title 1");
    expect((await callRead("GET", "/share-image/video_003?t=600&e=2")).text).toBe("frame 60 of 10302");
  });

  it("answers the last frame for a t past the end", async () => {
    const { res, text } = await callRead("GET", "/share-image/video_001?t=86400");
    expect(res.status).toBe(200);
    expect(text).toBe("last frame of title 1");
  });

  it("redirects to the cover where the title has no frames", async () => {
    const { res } = await callRead("GET", "/share-image/video_002?t=30");
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("Location") ?? "", BASE).pathname).toBe("/2.webp");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
  });

  it("refuses a bad t or episode (400) and an unknown title or episode (404), in Chinese", async () => {
    for (const query of ["", "?t=abc", "?t=-5", "?t=1.5", "?t=0", "?t=86401", "?t=10&e=0", "?t=10&e=x"]) {
      const { res, text } = await callRead("GET", `/share-image/video_001${query}`);
      expect(res.status, query).toBe(400);
      expect(text, query).toMatch(/参数无效/);
    }
    for (const path of ["/share-image/video_999?t=10", "/share-image/nope?t=10", "/share-image/video_003?t=10&e=999"]) {
      const { res, text } = await callRead("GET", path);
      expect(res.status, path).toBe(404);
      expect(text, path).toMatch(/不存在/);
    }
  });
});
