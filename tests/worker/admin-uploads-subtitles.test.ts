// 上传视频 and 字幕 (worker/admin/media-uploads.ts, docs/decisions/0085-subtitles.md): publishing a
// package writes exactly its subtitle languages into the entry — `subtitles: []` for what the
// browser packer makes (no subtitle group) — so the page never lists a track whose file the new
// media number lacks (the zh-CN default, or the languages of the media it replaced); a 字幕 upload
// afterwards adds a language to that media, aligned at time 0 like the packer's own cues.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { streamNames } from "../../shared/stream/contract";
import { enrolledHolder, post, type RoleHolder } from "./helpers/admin";
import { fakePackage, putAll, startUpload, totals } from "./helpers/upload-package";
import { call, callRead } from "./helpers/visitor";

const FILM = {
  id: "video_9311",
  title: "字幕上传测试电影",
  description: "浏览器打包上传，没有字幕。",
  category: ["电影"],
  tags: [],
  year: 2025,
  rating: 0,
  duration: "01:00",
  coverImage: "9311.webp",
  videoFile: "9311.mp4",
  // The media it had before (the CLI's, with two languages): a new package must not inherit them.
  subtitles: ["zh-CN", "en"],
};

const SERIES = {
  ...FILM,
  id: "video_9312",
  title: "字幕上传测试剧集",
  category: ["电视剧"],
  coverImage: "9312.webp",
  videoFile: "9312.mp4",
  episodes: [{ videoFile: "9312.mp4", duration: "01:00", subtitles: ["zh-CN", "en"] }],
};

interface Entry {
  videoFile: string;
  subtitles?: string[];
  episodes?: Array<{ videoFile: string; subtitles?: string[] }>;
}

let admin: RoleHolder;

beforeAll(async () => {
  admin = await enrolledHolder("admin", "upload-subtitles");
  for (const entry of [FILM, SERIES]) {
    const res = await post("/api/admin/titles", admin.jar, { entry });
    expect(res.status, await res.clone().text()).toBe(200);
  }
});

async function entryOf(id: string): Promise<Entry> {
  const { text } = await callRead("GET", `/api/admin/titles/${id}`, { jar: admin.jar });
  return (JSON.parse(text) as { entry: Entry }).entry;
}

async function publish(titleId: string, episode: number | null, subtitles: boolean): Promise<number> {
  const files = fakePackage(3, { subtitles });
  if (episode !== null) files.delete("cover.webp");
  const upload = await startUpload(admin, titleId, episode);
  await putAll(admin, upload, files);
  const res = await post(`/api/admin/uploads/${upload.id}/publish`, admin.jar, totals(files));
  expect(res.status, await res.clone().text()).toBe(200);
  return upload.number;
}

/** The caption tracks the title's page lists, each fetched: every one must be there. */
async function trackStatuses(id: string): Promise<Array<[string, number]>> {
  const { res, text } = await callRead("GET", `/video/${id}`);
  expect(res.status).toBe(200);
  const sources = [...text.matchAll(/<track[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, "&"));
  return Promise.all(sources.map(async (src) => [src, (await call("GET", src)).status] as [string, number]));
}

describe("publishing writes the package's subtitle languages", () => {
  it("a browser-packed film without subtitles: `subtitles: []`, and the page lists no track", async () => {
    const n = await publish(FILM.id, null, false);
    const entry = await entryOf(FILM.id);
    expect(entry.videoFile.replace(/^\//, "")).toBe(`${n}.mp4`);
    expect(entry.subtitles).toEqual([]);
    expect(await trackStatuses(FILM.id)).toEqual([]);
  });

  it("a package with zh-CN replacing one with zh-CN and en: only zh-CN, and its track is there", async () => {
    const n = await publish(FILM.id, null, true);
    expect((await entryOf(FILM.id)).subtitles).toEqual(["zh-CN"]);
    const tracks = await trackStatuses(FILM.id);
    expect(tracks).toEqual([[`/stream/${n}/${streamNames.subtitles}`, 200]]);
  });

  it("a series: episode 1 (the title's own video) and a new episode 2 get `subtitles: []`", async () => {
    await publish(SERIES.id, null, false);
    await publish(SERIES.id, 2, false);
    const entry = await entryOf(SERIES.id);
    expect(entry.subtitles).toEqual([]);
    expect(entry.episodes?.map((e) => e.subtitles)).toEqual([[], []]);
  });

  it("a 字幕 upload onto a browser-packed media lists its language, aligned at media time 0", async () => {
    const n = await publish(FILM.id, null, false);
    const res = await post(`/api/admin/titles/${FILM.id}/subtitles`, admin.jar, {
      language: "en",
      text: "1\n00:00:00,500 --> 00:00:01,500\nHello\n",
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await entryOf(FILM.id)).subtitles).toEqual(["en"]);
    const master = await env.MEDIA.get(`stream/${n}/master.m3u8`);
    expect(await master?.text()).toContain('LANGUAGE="en"');
    const vtt = await env.MEDIA.get(`stream/${n}/${streamNames.subtitlesOf("en")}`);
    expect(await vtt?.text()).toMatch(/^WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00\.000\n/);
    expect(await trackStatuses(FILM.id)).toEqual([[`/stream/${n}/${streamNames.subtitlesOf("en")}`, 200]]);
  });
});
