import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE } from "./helpers/visitor";

async function get(path: string) {
  const res = await SELF.fetch(BASE + path, { redirect: "manual" });
  return { res, html: await res.text() };
}

/** The page's JSON-LD. */
function structuredData(html: string): Record<string, unknown> {
  const match = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html);
  if (!match) throw new Error("no JSON-LD in the page");
  return JSON.parse(match[1]) as Record<string, unknown>;
}

const canonical = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
/** The 选集 grid's links, in page order, and the one marked current. */
const gridLinks = (html: string) => [...html.matchAll(/<a [^>]*class="episode-link"[^>]*>/g)].map((m) => m[0]);
const hrefOf = (tag: string) => /href="([^"]+)"/.exec(tag)?.[1];
/** The href of the link with this rel (上一集: prev, 下一集: next), or undefined when there is none. */
const relLink = (html: string, rel: "prev" | "next") => {
  const tag = new RegExp(`<a [^>]*rel="${rel}"[^>]*>${rel === "next" ? "下一集" : "上一集"}</a>`).exec(html)?.[0];
  return tag ? hrefOf(tag) : undefined;
};

describe("series pages: /video/{id} and /video/{id}/{episode}", () => {
  // video_003 槐树巷的春天: 6 episodes (episode 1 is /3.mp4, episode N is /1030N.mp4).
  it("/video/{id} shows episode 1 with a 选集 link to every episode, the TVSeries with its episodes, and the series as canonical", async () => {
    const { res, html } = await get("/video/video_003");
    expect(res.status).toBe(200);
    expect(canonical(html)).toBe(`${BASE}/video/video_003`);
    expect(html).toContain('<source src="/stream/3/master.m3u8"');
    const links = gridLinks(html);
    expect(links.map(hrefOf)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `/video/video_003/${n}`));
    expect(links.filter((l) => l.includes('aria-current="page"')).map(hrefOf)).toEqual(["/video/video_003/1"]);
    expect(html).toContain("全6集");
    // 上一集 is not a link on episode 1; 下一集 is.
    expect(relLink(html, "next")).toBe("/video/video_003/2");
    expect(relLink(html, "prev")).toBeUndefined();
    const ld = structuredData(html);
    expect(ld).toMatchObject({ "@type": "TVSeries", name: "槐树巷的春天", url: `${BASE}/video/video_003`, numberOfEpisodes: 6 });
    const episodes = ld.episode as Array<Record<string, unknown>>;
    expect(episodes).toHaveLength(6);
    expect(episodes[1]).toEqual({ "@type": "TVEpisode", episodeNumber: 2, name: "第2集", url: `${BASE}/video/video_003/2` });
    expect(html).toContain('<meta property="og:type" content="video.tv_show"/>');
  });

  it("/video/{id}/{n} plays that episode: its media, its canonical, a TVEpisode with its VideoObject, 上一集 and 下一集", async () => {
    const { res, html } = await get("/video/video_003/4");
    expect(res.status).toBe(200);
    expect(canonical(html)).toBe(`${BASE}/video/video_003/4`);
    expect(html).toContain('<source src="/stream/10304/master.m3u8"');
    expect(html).toContain('poster="/10304.webp"');
    expect(html).toContain("<title>槐树巷的春天 第4集 - ");
    expect(html).toContain(`<meta property="og:video" content="${BASE}/10304.mp4"/>`);
    expect(html).toContain('<meta property="og:type" content="video.episode"/>');
    const current = gridLinks(html).filter((l) => l.includes('aria-current="page"'));
    expect(current.map(hrefOf)).toEqual(["/video/video_003/4"]);
    expect(relLink(html, "prev")).toBe("/video/video_003/3");
    expect(relLink(html, "next")).toBe("/video/video_003/5");
    const ld = structuredData(html);
    expect(ld).toMatchObject({
      "@type": "TVEpisode",
      episodeNumber: 4,
      name: "第4集",
      url: `${BASE}/video/video_003/4`,
      partOfSeries: { "@type": "TVSeries", name: "槐树巷的春天", url: `${BASE}/video/video_003` },
      video: { "@type": "VideoObject", contentUrl: `${BASE}/10304.mp4`, thumbnailUrl: [`${BASE}/10304.webp`], duration: "PT45M" },
    });
  });

  it("the last episode has no 下一集 link", async () => {
    const { html } = await get("/video/video_003/6");
    expect(relLink(html, "next")).toBeUndefined();
    expect(relLink(html, "prev")).toBe("/video/video_003/5");
  });

  it("a bad or out-of-range episode, and an episode of a film, are 404 视频未找到", async () => {
    for (const path of [
      "/video/video_003/0",
      "/video/video_003/7",
      "/video/video_003/02",
      "/video/video_003/abc",
      "/video/video_003/1.5",
      "/video/video_003/%ZZ",
      "/video/video_001/1",
      "/video/video_999/1",
    ]) {
      const { res, html } = await get(path);
      expect(res.status, path).toBe(404);
      expect(html, path).toContain("视频未找到");
    }
    expect((await get("/video/video_003/2/3")).res.status).toBe(404);
  });

  it("a film keeps its VideoObject and has no 选集", async () => {
    const { res, html } = await get("/video/video_001");
    expect(res.status).toBe(200);
    expect(structuredData(html)).toMatchObject({ "@type": "VideoObject", contentUrl: `${BASE}/1.mp4` });
    expect(gridLinks(html)).toEqual([]);
    expect(html).not.toContain("上一集");
  });

  it("cards show 更新至N集 / 全N集", async () => {
    const { html } = await get("/category/电视剧");
    expect(html).toMatch(/<span class="video-card-status">(全\d+集|更新至\d+集|已完结)<\/span>/);
  });
});
