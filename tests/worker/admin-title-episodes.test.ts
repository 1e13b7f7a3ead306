// 视频管理's 剧集 rows: one episode added, moved or removed at a time — through the JSON API and
// through the edit form's row buttons (no JavaScript) — checked by the catalogue schema and the
// version, written to the 操作日志 as 修改剧集, and seen by viewers at once: the video page's
// data (through the edge cache) and the provide API; the removed episode's media leaves the title.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { enrolledHolder, post, type RoleHolder } from "./helpers/admin";
import { BASE, call, callRead } from "./helpers/visitor";

const ID = "video_9181";
const NAME = "剧集行测试";
const ENTRY = {
  id: ID,
  title: NAME,
  description: "逐集添加、删除和排序。",
  category: ["电视剧"],
  tags: [],
  year: 2025,
  rating: 8,
  duration: "45:00",
  coverImage: "9181.webp",
  videoFile: "9181.mp4",
  intro: { start: 0, end: 30 },
  episodes: [
    { videoFile: "9181.mp4", duration: "45:00", name: "甲" },
    { videoFile: "9182.mp4", duration: "44:00", name: "乙", outro: { start: 2500, end: 2640 } },
    { videoFile: "9183.mp4", duration: "43:00", name: "丙" },
  ],
};

interface Saved {
  version: number;
  entry: { intro?: unknown; episodes: Array<{ videoFile: string; name?: string; outro?: unknown }> };
}

let admin: RoleHolder;

async function saved(): Promise<Saved> {
  const { res, text } = await callRead("GET", `/api/admin/titles/${ID}`, { jar: admin.jar });
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as Saved;
}

const names = async () => (await saved()).entry.episodes.map((e) => e.name ?? e.videoFile);

async function episodes(body: Record<string, unknown>): Promise<Response> {
  const { version } = await saved();
  return post(`/api/admin/titles/${ID}/episodes`, admin.jar, { version, ...body });
}

async function lastAudit(): Promise<{ action: string; before_value: string; after_value: string }> {
  const row = await env.DB.prepare("SELECT action, before_value, after_value FROM admin_audit WHERE target = ? ORDER BY id DESC LIMIT 1")
    .bind(ID)
    .first<{ action: string; before_value: string; after_value: string }>();
  return row!;
}

beforeAll(async () => {
  admin = await enrolledHolder("admin", "title-episodes");
  const res = await post("/api/admin/titles", admin.jar, { entry: ENTRY });
  expect(res.status, await res.clone().text()).toBe(200);
});

describe("POST /api/admin/titles/{id}/episodes", () => {
  it("adds at the end, moves, removes: each a new version with a 修改剧集 audit row, and viewers see it", async () => {
    const before = await callRead("GET", `/api/page/video/${ID}`);
    expect(before.text).toContain("丙");
    const added = await episodes({ action: "add", videoFile: "9184.mp4", duration: "42:00", name: "丁" });
    expect(added.status, await added.clone().text()).toBe(200);
    expect(await added.json()).toMatchObject({ summary: "已添加第4集", episodes: 4 });
    expect(await names()).toEqual(["甲", "乙", "丙", "丁"]);
    expect((await lastAudit()).action).toBe("title.episodes");

    const moved = await episodes({ action: "move", episode: 4, to: 2 });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect(await names()).toEqual(["甲", "丁", "乙", "丙"]);
    // The episode's own fields travel with it.
    expect((await saved()).entry.episodes[2].outro).toEqual({ start: 2500, end: 2640 });

    const removed = await episodes({ action: "remove", episode: 4 });
    expect(removed.status, await removed.clone().text()).toBe(200);
    expect(await names()).toEqual(["甲", "丁", "乙"]);
    const audit = await lastAudit();
    expect(audit.action).toBe("title.episodes");
    expect(audit.before_value).toContain("丙");
    expect(audit.after_value).not.toContain("丙");

    // Viewers: the video page's data (through the edge cache), the provide API, the removed media.
    const page = await callRead("GET", `/api/page/video/${ID}`);
    expect(page.text).toContain("丁");
    expect(page.text).not.toContain("丙");
    const detail = await callRead("GET", `/api.php/provide/vod/?ac=detail&ids=9181`);
    const playUrl = (JSON.parse(detail.text) as { list: Array<{ vod_play_url: string }> }).list[0].vod_play_url;
    expect(playUrl.indexOf("丁")).toBeGreaterThan(-1);
    expect(playUrl.indexOf("丁")).toBeLessThan(playUrl.indexOf("乙"));
    expect(playUrl).not.toContain("丙");
    // Its media is no longer the title's (a number no title names is served as any unclaimed one: worker/media/visibility.ts).
    const media = await env.DB.prepare("SELECT number FROM title_media WHERE title_id = ? ORDER BY number").bind(ID).all<{ number: number }>();
    expect(media.results.map((r) => r.number)).toEqual([9181, 9182, 9184]);
  });

  it("refuses in Chinese: episode 1, a place that does not exist, a bad new row, an old version, an unknown action", async () => {
    const refused = async (res: Response, status: number, code: string) => {
      expect(res.status).toBe(status);
      const { error } = await res.json<{ error: { code: string; message: string; problems?: string[] } }>();
      expect(error.code).toBe(code);
      expect(error.message).toMatch(/\p{Script=Han}/u);
      return error;
    };
    expect((await refused(await episodes({ action: "remove", episode: 1 }), 400, "bad_episode_action")).message).toContain("第1集是视频本身的视频文件");
    await refused(await episodes({ action: "move", episode: 3, to: 1 }), 400, "bad_episode_action");
    expect((await refused(await episodes({ action: "remove", episode: 9 }), 400, "bad_episode_action")).message).toBe("没有第9集");
    const bad = await refused(await episodes({ action: "add", videoFile: "9185.mp4", duration: "四十分钟" }), 400, "invalid_entry");
    expect(bad.problems).toEqual(['「剧集」（第4集 duration）: 格式应为 "02:08:40" 或 "45:00"']);
    const { version } = await saved();
    await refused(await post(`/api/admin/titles/${ID}/episodes`, admin.jar, { action: "remove", episode: 2, version: version - 1 }), 409, "stale_version");
    await refused(await episodes({ action: "shuffle" }), 400, "bad_episode_action");
    expect(await names()).toEqual(["甲", "丁", "乙"]);
  });
});

describe("the edit form's row buttons (no JavaScript)", () => {
  async function form(fields: Array<[string, string]>): Promise<Response> {
    const { version, entry } = await saved();
    const rows = entry.episodes.flatMap((e) => [
      ["episodeFile", e.videoFile.replace(/^\//, "")],
      ["episodeDuration", "40:00"],
      ["episodeName", e.name ?? ""],
    ]);
    const body = new URLSearchParams([
      ["version", String(version)],
      ["state", "published"],
      ["title", NAME],
      ["description", ENTRY.description],
      ["category", "电视剧"],
      ["year", "2025"],
      ["rating", "8"],
      ["duration", "45:00"],
      ["videoFile", "9181.mp4"],
      ["coverImage", "9181.webp"],
      ...rows,
      ["newEpisodeFile", ""],
      ["newEpisodeDuration", ""],
      ["newEpisodeName", ""],
      ...fields,
    ]);
    return call("POST", `/admin/titles/${ID}`, {
      jar: admin.jar,
      body: body.toString(),
      contentType: "application/x-www-form-urlencoded",
      headers: { Origin: BASE },
    });
  }

  it("下移 and 删除 save the form with the change; the title's 片头 and an episode's 片尾 stay", async () => {
    const down = await form([["episodeOp", "down:2"]]);
    expect(down.status, await down.clone().text()).toBe(303);
    expect(down.headers.get("Location")).toBe(`/admin/titles/${ID}?done=episodes&what=${encodeURIComponent("第2集已移到第3集")}#episodes`);
    expect(await names()).toEqual(["甲", "乙", "丁"]);
    const now = await saved();
    expect(now.entry.intro).toEqual({ start: 0, end: 30 });
    expect(now.entry.episodes[1].outro).toEqual({ start: 2500, end: 2640 });
    expect((await lastAudit()).action).toBe("title.episodes");
    const edit = await callRead("GET", `/admin/titles/${ID}?done=episodes&what=${encodeURIComponent("第2集已移到第3集")}`, { jar: admin.jar });
    expect(edit.text).toContain("剧集已保存：第2集已移到第3集");
    expect(edit.text).toContain('aria-label="删除第3集"');

    const remove = await form([["episodeOp", "remove:3"]]);
    expect(remove.status).toBe(303);
    expect(await names()).toEqual(["甲", "乙"]);
  });

  it("the blank row adds an episode; 上移 of episode 2 is refused in Chinese and nothing is saved", async () => {
    const add = await form([
      ["newEpisodeFile", "9184.mp4"],
      ["newEpisodeDuration", "42:00"],
      ["newEpisodeName", "丁"],
      ["episodeOp", "add"],
    ]);
    expect(add.status, await add.clone().text()).toBe(303);
    expect(await names()).toEqual(["甲", "乙", "丁"]);
    const { version } = await saved();
    const up = await form([["episodeOp", "up:2"]]);
    expect(up.status).toBe(400);
    expect(await up.text()).toContain("第1集是视频本身的视频文件，不能删除或移动");
    expect((await saved()).version).toBe(version);
  });
});
