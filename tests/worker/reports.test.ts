// 举报 and 报错 from the viewer pages (worker/reports/api.ts): the body's checks with their Chinese
// messages, the origin check, signed-out rules (报错 yes, a 弹幕 no), the 弹幕's text kept with
// the report, a repeat not stored twice, the per-network and per-account hourly limits, and the
// player's error beacon counted once per visitor per title, episode and day. Also: the dialog's
// code is a lazy chunk, not in /video's first JavaScript.
import { env } from "cloudflare:test";
import clientAssets from "virtual:client-assets";
import { describe, expect, it } from "vitest";
import { MAX_NOTE_CHARS, REPORTS_PER_HOUR } from "../../shared/reports/model";
import { FAILURES_PER_NETWORK_DAY, forgetCountedFailures } from "../../worker/reports/failures";
import { scriptsBeforeHydration } from "./helpers/page-scripts";
import { BASE, call, callRead, signUp, uniqueIp, type Jar } from "./helpers/visitor";

const SAME_SITE = { Origin: BASE };

function report(json: unknown, o: { ip?: string; jar?: Jar; headers?: Record<string, string> } = {}): Promise<Response> {
  return call("POST", "/api/reports", { json, ip: o.ip ?? uniqueIp(), jar: o.jar, headers: { ...SAME_SITE, ...o.headers } });
}

function failure(json: unknown, ip = uniqueIp(), headers: Record<string, string> = SAME_SITE): Promise<Response> {
  return call("POST", "/api/reports/failure", { json, ip, headers });
}

interface ReportRow {
  kind: string;
  title_id: string;
  episode: number;
  reason: string;
  note: string | null;
  target_id: string | null;
  target_text: string | null;
  reporter_id: string | null;
  reporter_key: string;
  status: string;
}

const rowsOf = async (titleId: string) => (await env.DB.prepare("SELECT * FROM reports WHERE title_id = ? ORDER BY id").bind(titleId).all<ReportRow>()).results;

const errorOf = async (res: Response) => (await res.json<{ error: { code: string; message: string } }>()).error;

const failuresOf = async (titleId: string, episode = 1) =>
  (await env.DB.prepare("SELECT SUM(failures) AS n FROM playback_failures WHERE title_id = ? AND episode = ?").bind(titleId, episode).first<number>("n")) ?? 0;

describe("报错 (a playback problem)", () => {
  it("signed out: stored with the reason and note, the reporter only as a keyed hash", async () => {
    const ip = uniqueIp();
    const res = await report({ kind: "playback", title: "video_021", reason: "stutter", note: "  第10分钟开始卡  " }, { ip });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(await res.json()).toEqual({ ok: true, duplicate: false, message: "举报已提交，感谢你的反馈" });
    const [row] = await rowsOf("video_021");
    expect(row).toMatchObject({ kind: "playback", episode: 1, reason: "stutter", note: "第10分钟开始卡", reporter_id: null, status: "open", target_id: null });
    expect(row.reporter_key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(row.reporter_key).not.toContain(ip);
  });

  it("signed in: the account is kept with the report; an episode of a series", async () => {
    const { jar } = await signUp("reporter");
    const res = await report({ kind: "playback", title: "video_004", episode: 2, reason: "out_of_sync" }, { jar });
    expect(res.status, await res.clone().text()).toBe(200);
    const [row] = await rowsOf("video_004");
    expect(row.episode).toBe(2);
    expect(row.reporter_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    [{ kind: "review", title: "video_001", reason: "other" }, 400, "bad_kind", "举报类型无效"],
    // A comment of the 评论区 names its id (tests/worker/comments.test.ts has the rest).
    [{ kind: "comment", title: "video_001", reason: "other" }, 404, "unknown_comment", "这条评论不存在或已被删除"],
    [{ kind: "playback", title: "video_001" }, 400, "bad_reason", "请选择举报原因"],
    [{ kind: "playback", title: "video_001", reason: "spam" }, 400, "bad_reason", "请选择举报原因"],
    [{ kind: "playback", title: "video_001", reason: "other", note: "字".repeat(MAX_NOTE_CHARS + 1) }, 400, "note_too_long", "补充说明不能超过 200 个字"],
    [{ kind: "playback", title: "video_001", reason: "other", note: "a\u202eb" }, 400, "bad_note", "补充说明包含不允许的字符"],
    [{ kind: "playback", title: "video_001", reason: "other", note: 5 }, 400, "bad_request", "请求格式有误"],
    [{ kind: "playback", title: "video_001", reason: "other", episode: 0 }, 400, "bad_episode", "集数无效"],
    [{ kind: "playback", title: "video_001", reason: "other", episode: 2 }, 400, "bad_episode", "集数无效"],
    [{ kind: "playback", title: "video_9999999", reason: "other" }, 404, "not_found", "视频不存在"],
    [{ kind: "playback", title: "../x", reason: "other" }, 404, "not_found", "视频不存在"],
    [["playback"], 400, "bad_request", "请求格式有误"],
  ])("%j → %i %s", async (json, status, code, message) => {
    const res = await report(json);
    expect(res.status).toBe(status);
    expect(await errorOf(res)).toEqual({ code, message });
  });

  it("a note of exactly 200 characters is fine; a body that is not JSON is refused in Chinese", async () => {
    expect((await report({ kind: "playback", title: "video_022", reason: "other", note: "字".repeat(MAX_NOTE_CHARS) })).status).toBe(200);
    const res = await call("POST", "/api/reports", { body: "not json", contentType: "application/json", headers: SAME_SITE });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe("请求格式有误");
  });

  it("only from the site's own pages: another Origin, a cross-site fetch or none at all is refused and nothing is stored", async () => {
    const refused: Record<string, string>[] = [{ Origin: "https://evil.example" }, { Origin: BASE, "Sec-Fetch-Site": "cross-site" }, { Origin: "null" }];
    for (const headers of refused) {
      const res = await call("POST", "/api/reports", { json: { kind: "playback", title: "video_023", reason: "other" }, headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await errorOf(res)).toEqual({ code: "cross_site", message: "请求来源不明，已拒绝" });
    }
    const none = await call("POST", "/api/reports", { json: { kind: "playback", title: "video_023", reason: "other" } });
    expect(none.status).toBe(403);
    expect(await rowsOf("video_023")).toEqual([]);
  });

  it("the same problem reported again while open is not stored twice", async () => {
    const ip = uniqueIp();
    expect((await (await report({ kind: "playback", title: "video_024", reason: "unplayable" }, { ip })).json<{ duplicate: boolean }>()).duplicate).toBe(false);
    const again = await report({ kind: "playback", title: "video_024", reason: "unplayable", note: "还是不行" }, { ip });
    expect(await again.json()).toEqual({ ok: true, duplicate: true, message: "你已经举报过，我们会尽快处理" });
    // Another reason is another report.
    expect((await (await report({ kind: "playback", title: "video_024", reason: "stutter" }, { ip })).json<{ duplicate: boolean }>()).duplicate).toBe(false);
    expect(await rowsOf("video_024")).toHaveLength(2);
  });
});

describe("the hourly limit", () => {
  it(`a network sends at most ${REPORTS_PER_HOUR} reports an hour; another network is not affected`, async () => {
    const ip = uniqueIp();
    for (let i = 0; i < REPORTS_PER_HOUR; i++) {
      const res = await report({ kind: "playback", title: `video_0${30 + i}`, reason: "other" }, { ip });
      expect(res.status, `report ${i + 1}`).toBe(200);
    }
    const over = await report({ kind: "playback", title: "video_040", reason: "other" }, { ip });
    expect(over.status).toBe(429);
    expect(over.headers.get("Retry-After")).toBe("3600");
    expect(await errorOf(over)).toEqual({ code: "too_many_reports", message: "举报太频繁，请稍后再试" });
    expect(await rowsOf("video_040")).toEqual([]);
    expect((await report({ kind: "playback", title: "video_040", reason: "other" })).status).toBe(200);
  });

  it("an account is limited wherever it reports from", async () => {
    const { jar } = await signUp("busy-reporter");
    for (let i = 0; i < REPORTS_PER_HOUR; i++) {
      expect((await report({ kind: "playback", title: `video_0${10 + i}`, reason: "stutter" }, { jar })).status, `report ${i + 1}`).toBe(200);
    }
    const over = await report({ kind: "playback", title: "video_020", reason: "stutter" }, { jar });
    expect(over.status).toBe(429);
  });
});

describe("举报 of a 弹幕", () => {
  async function postComment(jar: Jar, text: string): Promise<{ id: number; time: number }> {
    const res = await call("POST", "/api/danmaku/v3/", { jar, json: { id: "video_045", time: 12.3, text }, headers: SAME_SITE });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json<{ data: { id: number; time: number } }>()).data;
  }

  it("signed out: refused with a Chinese prompt to sign in, nothing stored", async () => {
    const res = await report({ kind: "danmaku", title: "video_045", reason: "spam", comment: 1, time: 1 });
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toEqual({ code: "not_signed_in", message: "请先登录后再举报弹幕" });
    expect(await rowsOf("video_045")).toEqual([]);
  });

  it("signed in: the 弹幕's text and time are kept with the report; an unknown 弹幕 is refused", async () => {
    const poster = await signUp("danmaku-poster");
    const comment = await postComment(poster.jar, "这是一条广告弹幕");
    const { jar } = await signUp("danmaku-reporter");
    const res = await report({ kind: "danmaku", title: "video_045", reason: "spam", comment: comment.id, time: comment.time }, { jar });
    expect(res.status, await res.clone().text()).toBe(200);
    const [row] = await rowsOf("video_045");
    expect(row).toMatchObject({ kind: "danmaku", target_id: String(comment.id), target_text: "这是一条广告弹幕", reason: "spam" });
    for (const wrong of [
      { comment: comment.id + 1000, time: comment.time },
      { comment: comment.id, time: comment.time + 5 },
    ]) {
      const refused = await report({ kind: "danmaku", title: "video_045", reason: "spam", ...wrong }, { jar });
      expect(refused.status).toBe(404);
      expect(await errorOf(refused)).toEqual({ code: "unknown_comment", message: "这条弹幕不存在或已被删除" });
    }
    const bad = await report({ kind: "danmaku", title: "video_045", reason: "spam" }, { jar });
    expect(bad.status).toBe(404);
  });
});

describe("the player's error beacon", () => {
  it("counts once per visitor per title, episode and day; another visitor or episode counts apart", async () => {
    const a = uniqueIp();
    expect(await (await failure({ title: "video_046" }, a)).json()).toEqual({ counted: true });
    expect(await (await failure({ title: "video_046" }, a)).json()).toEqual({ counted: false });
    // Even when the isolate forgot it: D1 knows who was counted.
    forgetCountedFailures();
    expect(await (await failure({ title: "video_046", episode: 1 }, a)).json()).toEqual({ counted: false });
    expect(await (await failure({ title: "video_046" })).json()).toEqual({ counted: true });
    expect(await failuresOf("video_046")).toBe(2);
    expect(await (await failure({ title: "video_004", episode: 3 }, a)).json()).toEqual({ counted: true });
    expect(await failuresOf("video_004", 3)).toBe(1);
    // One row per title, episode and day: never a row per beacon.
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM playback_failures WHERE title_id = 'video_046'").first<number>("n");
    expect(rows).toBe(1);
  });

  it(`one network counts for at most ${FAILURES_PER_NETWORK_DAY} title-episodes a day`, async () => {
    const ip = uniqueIp();
    const titles = Array.from({ length: FAILURES_PER_NETWORK_DAY + 1 }, (_, i) => `video_${String(1 + i).padStart(3, "0")}`);
    const counted: boolean[] = [];
    for (const title of titles) counted.push((await (await failure({ title }, ip)).json<{ counted: boolean }>()).counted);
    expect(counted.filter(Boolean)).toHaveLength(FAILURES_PER_NETWORK_DAY);
    expect(counted.at(-1)).toBe(false);
    expect(await failuresOf(titles.at(-1) as string)).toBe(0);
  });

  it("refuses another origin, an unknown title and a bad episode in Chinese", async () => {
    const foreign = await failure({ title: "video_048" }, uniqueIp(), { Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await errorOf(foreign)).code).toBe("cross_site");
    expect((await failure({ title: "video_048" }, uniqueIp(), {})).status).toBe(403);
    expect(await failuresOf("video_048")).toBe(0);
    const unknown = await failure({ title: "video_9999999" });
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toBe("视频不存在");
    const episode = await failure({ title: "video_048", episode: 99 });
    expect(episode.status).toBe(400);
    expect((await errorOf(episode)).message).toBe("集数无效");
  });
});

describe("the dialog's code", () => {
  it("is a lazy chunk: /video does not load it before hydration", async () => {
    const dialog = Object.keys(clientAssets.lazy).find((m) => m.endsWith("shared/components/ReportDialog.tsx"));
    expect(dialog, "the dialog is its own chunk").toBeDefined();
    const { text } = await callRead("GET", "/video/video_001");
    expect(text).toContain("报错");
    expect(scriptsBeforeHydration(text)).not.toContain(clientAssets.lazy[dialog as string][0]);
  });
});
