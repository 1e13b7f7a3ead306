// 线路 on the worker's side: the built-in mirror (/mirror/stream/… serves the /stream/ tree, same
// answers and CORS), the provide API listing each line as its own source, the pages' CSP allowing
// media only from the configured lines' hosts, and the player's failure reports counted for 概览.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { enrolledHolder, post, type RoleHolder } from "./helpers/admin";
import { BASE, call, callRead } from "./helpers/visitor";

const MASTER = '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=480x270,CODECS="avc1.4d401e,mp4a.40.2"\n270p.m3u8\n';

/** A title whose second line is a CDN mirror and whose episode 2 has an external MP4 line. */
const WITH_CDN = {
  id: "video_9301",
  title: "线路测试",
  description: "测试线路。",
  category: ["电视剧"],
  tags: [],
  year: 2024,
  rating: 7,
  duration: "45:00",
  coverImage: "9301.webp",
  videoFile: "9301.mp4",
  lines: [{ name: "大陆CDN", mirror: "https://cdn.example.cn/ys" }],
  episodes: [
    { videoFile: "9301.mp4", duration: "45:00" },
    { videoFile: "9302.mp4", duration: "45:00", lines: [{ url: "https://v.example.com/e2.mp4" }] },
  ],
};

let admin: RoleHolder;

function directive(csp: string | null, name: string): string {
  return (
    (csp ?? "")
      .split(";")
      .map((d) => d.trim())
      .find((d) => d.startsWith(`${name} `)) ?? ""
  );
}

beforeAll(async () => {
  admin = await enrolledHolder("admin", "lines");
  await env.MEDIA.put("stream/1/master.m3u8", MASTER);
});

describe("the built-in mirror", () => {
  it("/mirror/stream/… answers exactly as /stream/… (type, cache, CORS, CORP cross-origin); other paths under it are 404", async () => {
    const own = await callRead("GET", "/stream/1/master.m3u8");
    const mirror = await callRead("GET", "/mirror/stream/1/master.m3u8", { headers: { Origin: "https://app.example" } });
    expect(mirror.res.status).toBe(200);
    expect(mirror.text).toBe(own.text);
    for (const name of ["Content-Type", "Cache-Control", "ETag"]) expect(mirror.res.headers.get(name), name).toBe(own.res.headers.get(name));
    expect(mirror.res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(mirror.res.headers.get("Cross-Origin-Resource-Policy")).toBe("cross-origin");
    for (const path of ["/mirror/stream/1/nope.m3u8", "/mirror/stream/01/master.m3u8", "/mirror/1.mp4", "/mirror/stream/1/..%2Fmaster.m3u8"]) {
      const res = await call("GET", path);
      expect(res.status, path).toBe(404);
      await res.arrayBuffer();
    }
  });
});

describe("the provide API", () => {
  it("lists each line as its own source: vod_play_from and vod_play_url joined with $$$, URLs absolute", async () => {
    const { text } = await callRead("GET", "/api.php/provide/vod/?ac=detail&ids=1");
    const row = (JSON.parse(text) as { list: Array<{ vod_play_from: string; vod_play_url: string; vod_play_server: string }> }).list[0];
    expect(row.vod_play_from).toBe("m3u8$$$mp4$$$line2m3u8");
    expect(row.vod_play_url.split("$$$")).toEqual([`正片$${BASE}/stream/1/master.m3u8`, `正片$${BASE}/1.mp4`, `正片$${BASE}/mirror/stream/1/master.m3u8`]);
    expect(row.vod_play_server).toBe("no$$$no$$$no");
  });
});

describe("the CSP's media hosts", () => {
  it("allows media and hls.js's requests from this site only while no line names another host, then from exactly those hosts", async () => {
    const before = (await callRead("GET", "/video/video_002")).res.headers.get("Content-Security-Policy");
    expect(directive(before, "media-src")).toBe("media-src 'self' blob:");
    expect(directive(before, "connect-src")).toBe("connect-src 'self'");

    const saved = await post("/api/admin/titles", admin.jar, { entry: WITH_CDN });
    expect(saved.status, await saved.clone().text()).toBe(200);
    // Any page of the site (a client navigation keeps the first page's CSP).
    const after = (await callRead("GET", "/video/video_002")).res.headers.get("Content-Security-Policy");
    expect(directive(after, "media-src")).toBe("media-src 'self' blob: https://cdn.example.cn https://v.example.com");
    expect(directive(after, "connect-src")).toBe("connect-src 'self' https://cdn.example.cn https://v.example.com");
    expect(directive(after, "script-src")).toMatch(/^script-src 'self' 'nonce-/);

    const provide = JSON.parse((await callRead("GET", "/api.php/provide/vod/?ac=detail&ids=9301")).text) as {
      list: Array<{ vod_play_from: string; vod_play_url: string }>;
    };
    expect(provide.list[0].vod_play_from).toBe("m3u8$$$mp4$$$line2m3u8$$$line3mp4");
    expect(provide.list[0].vod_play_url.split("$$$")[3]).toBe("第02集$https://v.example.com/e2.mp4");
  });
});

describe("line failures", () => {
  const report = (id: string, json: unknown, headers: Record<string, string> = { Origin: BASE }) =>
    call("POST", `/api/lines/${id}/failures`, { json, headers });

  it("counts each report per day, title, episode and line; 概览 shows the lines that failed most", async () => {
    expect((await report("video_001", { episode: 1, line: 0 })).status).toBe(204);
    expect((await report("video_001", { episode: 1, line: 0 })).status).toBe(204);
    expect((await report("video_001", { episode: 1, line: 1 })).status).toBe(204);
    const rows = await env.DB.prepare("SELECT episode, line, failures FROM line_failures WHERE title_id = 'video_001' ORDER BY line").all();
    expect(rows.results).toEqual([
      { episode: 1, line: 0, failures: 2 },
      { episode: 1, line: 1, failures: 1 },
    ]);
    const overview = await callRead("GET", "/api/admin/overview", { jar: admin.jar });
    const figures = JSON.parse(overview.text) as { lineFailures: { windows: { today: number }; top: unknown[] } };
    expect(figures.lineFailures.windows.today).toBe(3);
    expect(figures.lineFailures.top.slice(0, 2)).toEqual([
      { id: "video_001", title: "雾港来信", episode: 1, line: "线路1", failures: 2 },
      { id: "video_001", title: "雾港来信", episode: 1, line: "线路2", failures: 1 },
    ]);
    const page = await callRead("GET", "/admin", { jar: admin.jar });
    expect(page.text).toContain("近30天故障最多的线路");
    expect(page.text).toContain("线路2");
  });

  it("refuses other sites, unknown titles and lines a title does not have, in Chinese", async () => {
    const refused = async (res: Response) => ({ status: res.status, ...(await res.json<{ error: { code: string; message: string } }>()).error });
    expect(await refused(await report("video_001", { episode: 1, line: 0 }, { Origin: "https://evil.example" }))).toEqual({
      status: 403,
      code: "cross_site",
      message: "请求来源无效",
    });
    expect(await refused(await report("video_99999", { episode: 1, line: 0 }))).toMatchObject({ status: 404, code: "not_found" });
    expect(await refused(await report("video_001", { episode: 1, line: 2 }))).toEqual({ status: 400, code: "bad_line", message: "没有这条线路" });
    expect(await refused(await report("video_001", { line: 0 }))).toEqual({ status: 400, code: "bad_line", message: "缺少集数或线路" });
  });
});
