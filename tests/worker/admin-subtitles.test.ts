// 字幕 uploads of 视频管理 (worker/admin/subtitles.ts): an SRT, ASS or WebVTT file converted to
// WebVTT in R2 beside the packed stream, aligned like the packer's own, listed in the master with
// its language and name, named in the entry (so the page's player lists it), audited; bad files,
// languages and episodes refused with a Chinese message; media without a stream refused.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { parseMasterPlaylist, parseMediaPlaylist } from "../../shared/stream/hls-parse";
import { parseVtt } from "../../shared/stream/webvtt";
import { enrolledHolder, post, SAME_SITE, type RoleHolder } from "./helpers/admin";
import { call, callRead } from "./helpers/visitor";

const FILM = {
  id: "video_9201",
  title: "字幕上传测试",
  description: "上传字幕。",
  category: ["电影"],
  tags: [],
  year: 2024,
  rating: 7,
  duration: "00:12",
  coverImage: "9201.webp",
  videoFile: "9201.mp4",
};
const SERIES = {
  ...FILM,
  id: "video_9202",
  title: "字幕上传剧集",
  category: ["电视剧"],
  coverImage: "9203.webp",
  videoFile: "9203.mp4",
  episodes: [
    { videoFile: "9203.mp4", duration: "00:12" },
    { videoFile: "9204.mp4", duration: "00:12" },
  ],
};
/** A title whose media were never packed. */
const UNPACKED = { ...FILM, id: "video_9205", title: "没有码流", coverImage: "9205.webp", videoFile: "9205.mp4" };

const MASTER = `#EXTM3U
#EXT-X-VERSION:7
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="中文",LANGUAGE="zh-CN",DEFAULT=NO,AUTOSELECT=YES,URI="subtitles-zh-CN.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=480x270,CODECS="avc1.4d401e,mp4a.40.2",SUBTITLES="subs"
270p.m3u8
`;
const PLAYLIST =
  '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:6\n#EXT-X-MAP:URI="270p-0123abcd-init.mp4"\n#EXTINF:6.000,\n270p-0123abcd-00000.m4s\n#EXTINF:6.000,\n270p-0123abcd-00001.m4s\n#EXT-X-ENDLIST\n';
const MAP = "X-TIMESTAMP-MAP=MPEGTS:7200,LOCAL:00:00:00.000";
const SRT = "1\n00:00:01,000 --> 00:00:03,000\nHello <i>there</i>\n\n2\n00:00:04,000 --> 00:00:06,500\nSecond line\n";

let admin: RoleHolder;

async function packed(n: number): Promise<void> {
  await env.MEDIA.put(`stream/${n}/master.m3u8`, MASTER);
  await env.MEDIA.put(`stream/${n}/270p.m3u8`, PLAYLIST);
  await env.MEDIA.put(`stream/${n}/subtitles-zh-CN.vtt`, `WEBVTT\n${MAP}\n\n00:00:00.500 --> 00:00:04.000\n「字幕上传测试」\n`);
}

const upload = (id: string, json: Record<string, unknown>) => post(`/api/admin/titles/${id}/subtitles`, admin.jar, json);

async function refusal(res: Response): Promise<{ status: number; code: string; message: string }> {
  const body = await res.json<{ error: { code: string; message: string } }>();
  return { status: res.status, ...body.error };
}

beforeAll(async () => {
  admin = await enrolledHolder("admin", "subtitles");
  for (const entry of [FILM, SERIES, UNPACKED]) {
    const res = await post("/api/admin/titles", admin.jar, { entry });
    expect(res.status, await res.clone().text()).toBe(200);
  }
  await packed(9201);
  await packed(9204);
});

describe("uploading subtitles", () => {
  it("an SRT in English: WebVTT in R2 aligned like the packer's, its playlist, the master listing both languages, the entry, the page, the audit", async () => {
    const res = await upload(FILM.id, { language: "en", text: SRT });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ episode: 1, language: "en", format: "srt", cues: 2, languages: ["zh-CN", "en"] });

    const vtt = await (await env.MEDIA.get("stream/9201/subtitles-en.vtt"))!.text();
    expect(parseVtt(vtt)).toEqual({
      header: [MAP],
      cues: [
        { start: 1, end: 3, text: "Hello there" },
        { start: 4, end: 6.5, text: "Second line" },
      ],
    });
    const playlist = parseMediaPlaylist(await (await env.MEDIA.get("stream/9201/subtitles-en.m3u8"))!.text());
    expect(playlist.segments).toEqual([{ duration: 12, uri: "subtitles-en.vtt" }]);

    // Served by the stream route, as the contract types them.
    const served = await callRead("GET", "/stream/9201/master.m3u8");
    expect(served.res.status).toBe(200);
    const master = parseMasterPlaylist(served.text);
    expect(master.subtitles.map((s) => [s.name, s.language, s.uri])).toEqual([
      ["简体中文", "zh-CN", "subtitles-zh-CN.m3u8"],
      ["English", "en", "subtitles-en.m3u8"],
    ]);
    const file = await callRead("GET", "/stream/9201/subtitles-en.vtt");
    expect(file.res.status).toBe(200);
    expect(file.res.headers.get("Content-Type")).toBe("text/vtt; charset=utf-8");

    const edited = await callRead("GET", `/api/admin/titles/${FILM.id}`, { jar: admin.jar });
    expect((JSON.parse(edited.text) as { entry: { subtitles?: string[] } }).entry.subtitles).toEqual(["zh-CN", "en"]);
    const page = await callRead("GET", `/video/${FILM.id}`);
    expect(page.text).toMatch(/<track kind="captions" src="\/stream\/9201\/subtitles-en.vtt" srcLang="en" label="English"\/?>/i);
    expect(page.text).toMatch(/<track kind="captions" src="\/stream\/9201\/subtitles-zh-CN.vtt" srcLang="zh-CN" label="简体中文"\/?>/i);

    const audit = await env.DB.prepare("SELECT action, after_value FROM admin_audit WHERE target = ? AND action = 'title.subtitles'")
      .bind(FILM.id)
      .first<{ action: string; after_value: string }>();
    expect(JSON.parse(audit!.after_value)).toEqual({ episode: 1, language: "en", format: "SRT", cues: 2 });
  });

  it("an ASS file for episode 2 of a series: that episode's media and entry only", async () => {
    const ass =
      "[Script Info]\nTitle: x\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\i1}繁體{\\i0}字幕\n";
    const res = await upload(SERIES.id, { episode: 2, language: "zh-TW", text: ass });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(parseVtt(await (await env.MEDIA.get("stream/9204/subtitles-zh-TW.vtt"))!.text()).cues).toEqual([{ start: 1, end: 2, text: "繁體字幕" }]);
    const edited = JSON.parse((await callRead("GET", `/api/admin/titles/${SERIES.id}`, { jar: admin.jar })).text) as {
      entry: { subtitles?: string[]; episodes: Array<{ subtitles?: string[] }> };
    };
    expect(edited.entry.subtitles).toBeUndefined();
    expect(edited.entry.episodes.map((e) => e.subtitles)).toEqual([undefined, ["zh-CN", "zh-TW"]]);
  });

  it("removing a language takes it out of the master and the entry", async () => {
    await env.MEDIA.put("stream/9201/master.m3u8", MASTER);
    await upload(FILM.id, { language: "ja", text: SRT });
    const res = await post(`/api/admin/titles/${FILM.id}/subtitles/remove`, admin.jar, { language: "ja" });
    expect(res.status, await res.clone().text()).toBe(200);
    const master = parseMasterPlaylist(await (await env.MEDIA.get("stream/9201/master.m3u8"))!.text());
    expect(master.subtitles.map((s) => s.language)).toEqual(["zh-CN", "en"]);
    expect(await refusal(await post(`/api/admin/titles/${FILM.id}/subtitles/remove`, admin.jar, { language: "ja" }))).toEqual({
      status: 404,
      code: "no_such_subtitles",
      message: "这个视频没有日本語字幕",
    });
  });

  it("refuses bad input with a Chinese message, and writes nothing", async () => {
    const before = await env.MEDIA.get("stream/9201/subtitles-ko.vtt");
    expect(before).toBeNull();
    expect(await refusal(await upload(FILM.id, { language: "ko", text: "not subtitles" }))).toEqual({
      status: 400,
      code: "bad_subtitles",
      message: "无法识别的字幕格式：请上传 SRT、ASS 或 WebVTT 文件",
    });
    const backwards = await refusal(await upload(FILM.id, { language: "ko", text: "1\n00:00:05,000 --> 00:00:01,000\n倒了\n" }));
    expect([backwards.status, backwards.code]).toEqual([400, "bad_subtitles"]);
    expect(backwards.message).toMatch(/^第 1 条字幕的结束时间不晚于开始时间/);
    expect(await refusal(await upload(FILM.id, { language: "fr", text: SRT }))).toEqual({
      status: 400,
      code: "bad_language",
      message: "请选择字幕语言（简体中文、繁體中文、English、日本語、한국어）",
    });
    expect(await refusal(await upload(FILM.id, { language: "ko" }))).toEqual({ status: 400, code: "no_file", message: "没有收到字幕文件" });
    expect(await refusal(await upload(FILM.id, { language: "ko", episode: 2, text: SRT }))).toEqual({
      status: 400,
      code: "bad_episode",
      message: "单片只有一个视频，不能指定集数",
    });
    expect(await refusal(await upload(SERIES.id, { language: "ko", episode: 3, text: SRT }))).toEqual({
      status: 400,
      code: "bad_episode",
      message: "没有第 3 集（共 2 集）",
    });
    expect(await refusal(await upload(UNPACKED.id, { language: "ko", text: SRT }))).toMatchObject({ status: 409, code: "not_packed" });
    expect(await env.MEDIA.get("stream/9201/subtitles-ko.vtt")).toBeNull();
  });

  it("the edit screen's form (multipart, no JavaScript) uploads a file and lists the language; a bad file is shown as an error", async () => {
    const form = new FormData();
    form.set("language", "ko");
    form.set("file", new File([SRT], "film.ko.srt", { type: "application/x-subrip" }));
    const res = await call("POST", `/admin/titles/${FILM.id}/subtitles`, { jar: admin.jar, body: form, headers: SAME_SITE });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`/admin/titles/${FILM.id}?done=subtitles`);
    const screen = await callRead("GET", `/admin/titles/${FILM.id}?done=subtitles`, { jar: admin.jar });
    expect(screen.text).toContain("字幕已上传");
    expect(screen.text).toContain("移除한국어");
    const bad = new FormData();
    bad.set("language", "ja");
    bad.set("file", new File(["not subtitles"], "x.srt"));
    const refused = await callRead("POST", `/admin/titles/${FILM.id}/subtitles`, { jar: admin.jar, body: bad, headers: SAME_SITE });
    expect(refused.res.status).toBe(400);
    expect(refused.text).toContain("无法识别的字幕格式：请上传 SRT、ASS 或 WebVTT 文件");
  });
});
