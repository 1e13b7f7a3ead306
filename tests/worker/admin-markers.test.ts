// 片头 / 片尾 in 视频管理 (worker/admin/markers.ts, shared/admin/marker-form.ts): the edit screen's
// own form and the JSON API set a title's markers and an episode's own, the page data the player
// reads carries them, an audit row names them, the main form's save keeps them; bad times are
// refused with Chinese problems and write nothing.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { enrolledHolder, post, SAME_SITE, type RoleHolder } from "./helpers/admin";
import { call, callRead } from "./helpers/visitor";

const SERIES = {
  id: "video_9301",
  title: "片头片尾编辑",
  description: "三集。",
  category: ["电视剧"],
  tags: [],
  year: 2024,
  rating: 7,
  duration: "00:40",
  coverImage: "9301.webp",
  videoFile: "9301.mp4",
  episodes: [
    { videoFile: "9301.mp4", duration: "00:40" },
    { videoFile: "9302.mp4", duration: "00:30" },
    { videoFile: "9303.mp4", duration: "00:40" },
  ],
};
const FILM = { ...SERIES, id: "video_9305", title: "片头片尾单片", category: ["电影"], coverImage: "9305.webp", videoFile: "9305.mp4", episodes: undefined };

let admin: RoleHolder;

interface Edited {
  version: number;
  entry: { intro?: unknown; outro?: unknown; episodes?: Array<{ intro?: unknown; outro?: unknown; name?: string }> };
}
const edited = async (id: string): Promise<Edited> => JSON.parse((await callRead("GET", `/api/admin/titles/${id}`, { jar: admin.jar })).text) as Edited;

/** The edit screen's 片头 / 片尾 form, as a browser posts it. */
const postForm = (id: string, fields: Record<string, string>) =>
  callRead("POST", `/admin/titles/${id}/markers`, { jar: admin.jar, form: fields, headers: SAME_SITE });

beforeAll(async () => {
  admin = await enrolledHolder("admin", "markers");
  for (const entry of [SERIES, FILM]) {
    const res = await post("/api/admin/titles", admin.jar, { entry });
    expect(res.status, await res.clone().text()).toBe(200);
  }
});

describe("片头 / 片尾 in 视频管理", () => {
  it("the form sets the title's markers and an episode's own; the player's page data has them; the audit names them", async () => {
    const { version } = await edited(SERIES.id);
    const { res } = await postForm(SERIES.id, {
      version: String(version),
      "intro-start-0": "0",
      "intro-end-0": "0:05",
      "outro-start-0": "32",
      "outro-end-0": "38.5",
      "outro-start-2": "0:24",
      "outro-end-2": "0:30",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`/admin/titles/${SERIES.id}?done=markers`);

    const now = await edited(SERIES.id);
    expect(now.version).toBe(version + 1);
    expect(now.entry.intro).toEqual({ start: 0, end: 5 });
    expect(now.entry.outro).toEqual({ start: 32, end: 38.5 });
    expect(now.entry.episodes!.map((e) => [e.intro, e.outro])).toEqual([
      [undefined, undefined],
      [undefined, { start: 24, end: 30 }],
      [undefined, undefined],
    ]);

    // What the video page's player reads (the episode's loader data).
    const data = JSON.parse((await callRead("GET", `/api/page/video/${SERIES.id}/2`)).text) as string;
    expect(JSON.stringify(data)).toContain('"outro":{"start":24,"end":30}');
    expect(JSON.stringify(data)).toContain('"intro":{"start":0,"end":5}');

    const audit = await env.DB.prepare("SELECT after_value FROM admin_audit WHERE target = ? AND action = 'title.markers' ORDER BY id DESC")
      .bind(SERIES.id)
      .first<{ after_value: string }>();
    expect(JSON.parse(audit!.after_value)).toEqual({
      intro: { start: 0, end: 5 },
      outro: { start: 32, end: 38.5 },
      episodes: [{ episode: 2, intro: null, outro: { start: 24, end: 30 } }],
    });

    // The screen shows them back, as the operator typed them.
    const screen = await callRead("GET", `/admin/titles/${SERIES.id}?done=markers`, { jar: admin.jar });
    expect(screen.text).toContain("片头 / 片尾已保存");
    expect(screen.text).toMatch(/aria-label="全部剧集 片尾结束" name="outro-end-0" value="0:38.5"/);
    expect(screen.text).toMatch(/aria-label="第2集 片尾开始" name="outro-start-2" value="0:24"/);
  });

  it("saving the main form keeps the markers, an episode's own with its episode", async () => {
    const before = await edited(SERIES.id);
    expect(before.entry.intro).toBeDefined();
    const form = {
      version: String(before.version),
      state: "published",
      title: SERIES.title,
      description: "改过的简介。",
      category: "电视剧",
      year: "2024",
      rating: "7",
      duration: "00:40",
      coverImage: "9301.webp",
      videoFile: "9301.mp4",
      episodes: "9301.mp4 | 00:40\n9302.mp4 | 00:30 | 第二集\n9303.mp4 | 00:40",
    };
    const { res, text } = await callRead("POST", `/admin/titles/${SERIES.id}`, { jar: admin.jar, form, headers: SAME_SITE });
    expect(res.status, text).toBe(303);
    const after = await edited(SERIES.id);
    expect(after.entry.intro).toEqual(before.entry.intro);
    expect(after.entry.outro).toEqual(before.entry.outro);
    expect(after.entry.episodes![1]).toMatchObject({ name: "第二集", outro: { start: 24, end: 30 } });
  });

  it("clearing the fields takes a marker out; the JSON API takes the same names", async () => {
    const { version } = await edited(SERIES.id);
    const res = await post(`/api/admin/titles/${SERIES.id}/markers`, admin.jar, {
      version,
      fields: { "intro-start-0": 1, "intro-end-0": 6, "outro-start-2": "", "outro-end-2": "" },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ id: SERIES.id, version: version + 1 });
    const now = await edited(SERIES.id);
    expect(now.entry.intro).toEqual({ start: 1, end: 6 });
    expect(now.entry.outro).toBeUndefined();
    expect(now.entry.episodes!.map((e) => e.outro)).toEqual([undefined, undefined, undefined]);
  });

  it("refuses bad times with Chinese problems, and writes nothing", async () => {
    const { version } = await edited(SERIES.id);
    const refused = async (fields: Record<string, unknown>) => {
      const res = await post(`/api/admin/titles/${SERIES.id}/markers`, admin.jar, { version, fields });
      const body = await res.json<{ error: { code: string; message: string; problems?: string[] } }>();
      return { status: res.status, code: body.error.code, problems: body.error.problems };
    };
    expect(await refused({ "intro-start-1": "一分钟", "intro-end-1": "1:70" })).toEqual({
      status: 400,
      code: "invalid_markers",
      problems: [
        "「第1集 片头」的开始时间格式有误：请填写秒数或 分:秒，例如 90 或 1:30",
        "「第1集 片头」的结束时间格式有误：请填写秒数或 分:秒，例如 90 或 1:30",
      ],
    });
    expect((await refused({ "outro-start-0": "30" })).problems).toEqual(["「全部剧集 片尾」要同时填写开始和结束时间（都留空表示没有）"]);
    expect((await refused({ "intro-start-0": "10", "intro-end-0": "0:10" })).problems).toEqual(["「全部剧集 片头」的结束时间（0:10）必须晚于开始时间（0:10）"]);
    expect((await refused({ "outro-start-2": "25", "outro-end-2": "35" })).problems).toEqual(["「第2集 片尾」的结束时间（0:35）超过了这一集的时长（0:30）"]);
    expect((await refused({ "intro-start-0": "0", "intro-end-0": "50" })).problems).toEqual(["「全部剧集 片头」的结束时间（0:50）超过了视频时长（0:40）"]);
    expect((await refused({ "intro-start-0": "0", "intro-end-0": "20", "outro-start-3": "15", "outro-end-3": "40" })).problems).toEqual([
      "「第3集」的片头（到 0:20）必须在片尾开始（0:15）之前结束",
    ]);
    expect((await edited(SERIES.id)).version).toBe(version);

    const stale = await post(`/api/admin/titles/${SERIES.id}/markers`, admin.jar, { version: version - 1, fields: {} });
    expect(stale.status).toBe(409);
    expect((await stale.json<{ error: { code: string } }>()).error.code).toBe("stale_version");
    const missing = await post("/api/admin/titles/video_9399/markers", admin.jar, { version: 1, fields: {} });
    expect(missing.status).toBe(404);
    expect((await missing.json<{ error: { message: string } }>()).error.message).toBe("没有编号为 video_9399 的视频（可能已被删除）");
  });

  it("the form's refusal shows the problems next to the typed values; a film has one row, 正片", async () => {
    const { version } = await edited(FILM.id);
    const { res, text } = await postForm(FILM.id, { version: String(version), "outro-start-0": "0:39", "outro-end-0": "0:45" });
    expect(res.status).toBe(400);
    expect(text).toContain("「正片 片尾」的结束时间（0:45）超过了视频时长（0:40）");
    expect(text).toMatch(/aria-label="正片 片尾结束" name="outro-end-0" value="0:45"/);
    expect(text).not.toContain("第1集 片头开始");
    expect((await edited(FILM.id)).entry.outro).toBeUndefined();
  });

  it("only an admin may set them", async () => {
    const moderator = await enrolledHolder("moderator", "markers-mod");
    const res = await call("POST", `/api/admin/titles/${SERIES.id}/markers`, { jar: moderator.jar, json: { version: 1, fields: {} }, headers: SAME_SITE });
    expect(res.status).toBe(403);
  });
});
