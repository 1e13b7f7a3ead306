// 举报 in the 管理后台 (worker/admin/reports.ts): reports sent by viewers through the site's own
// route are listed grouped by title with counts, filtered by kind and status; a moderator resolves
// one (its 操作日志 row written with it), cannot resolve it twice, dismisses a title's open
// reports of one kind as a group; the page's forms do the same and go back to the queue; 概览
// counts the open reports and the playback failures (beacons + 报错) from the same data.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuditRecord } from "../../worker/admin/audit";
import type { ReportQueue } from "../../worker/admin/reports";
import { BASE, call, callRead, signUp, uniqueIp, type Jar } from "./helpers/visitor";
import { enrolledHolder, post, type RoleHolder } from "./helpers/admin";

let admin: RoleHolder;
let moderator: RoleHolder;
let viewer: Jar;

const SAME_SITE = { Origin: BASE };

async function sendReport(json: Record<string, unknown>, jar?: Jar): Promise<void> {
  const res = await call("POST", "/api/reports", { json, jar, ip: uniqueIp(), headers: SAME_SITE });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function danmakuOn(titleId: string, text: string): Promise<{ id: number; time: number }> {
  const res = await call("POST", "/api/danmaku/v3/", { jar: viewer, json: { id: titleId, time: 3, text }, headers: SAME_SITE });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: { id: number; time: number } }>()).data;
}

async function queue(query = "", jar = moderator.jar): Promise<ReportQueue> {
  const res = await call("GET", `/api/admin/reports${query}`, { jar });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json<ReportQueue>();
}

async function lastAudit(action: string): Promise<AuditRecord> {
  const res = await call("GET", `/api/admin/audit?action=${action}&limit=1`, { jar: admin.jar });
  const [entry] = (await res.json<{ entries: AuditRecord[] }>()).entries;
  return entry;
}

beforeAll(async () => {
  admin = await enrolledHolder("admin", "reports-admin");
  moderator = await enrolledHolder("moderator", "reports-mod");
  viewer = (await signUp("reports-viewer")).jar;
  // video_031: three 报错 and one 弹幕 report; video_033: one 报错.
  await sendReport({ kind: "playback", title: "video_031", reason: "unplayable" });
  await sendReport({ kind: "playback", title: "video_031", reason: "stutter", note: "一直在转圈" });
  await sendReport({ kind: "playback", title: "video_031", reason: "out_of_sync" });
  const comment = await danmakuOn("video_031", "这条弹幕在刷屏");
  await sendReport({ kind: "danmaku", title: "video_031", reason: "spam", comment: comment.id, time: comment.time }, viewer);
  await sendReport({ kind: "playback", title: "video_033", reason: "other", note: "没有声音" });
});

describe("the queue", () => {
  it("groups open reports by title with counts, most reported first; a 弹幕 report shows its text", async () => {
    const all = await queue();
    expect(all.query).toEqual({ kind: "", status: "open", page: 1 });
    expect(all.groups.map((g) => [g.titleId, g.count])).toEqual([
      ["video_031", 4],
      ["video_033", 1],
    ]);
    expect(all).toMatchObject({ titles: 2, reports: 5, pages: 1 });
    const [first] = all.groups;
    expect(first.title).not.toBe("video_031");
    expect(first.byKind).toEqual({ danmaku: 1, playback: 3, comment: 0 });
    const danmaku = first.reports.find((r) => r.kind === "danmaku");
    expect(danmaku).toMatchObject({ targetText: "这条弹幕在刷屏", reason: "spam", signedIn: true, status: "open" });
    expect(first.reports.find((r) => r.reason === "stutter")?.note).toBe("一直在转圈");
    expect((await queue("?kind=danmaku")).groups.map((g) => [g.titleId, g.count])).toEqual([["video_031", 1]]);
    expect((await queue("?status=resolved")).groups).toEqual([]);
  });

  it("the page lists the same, for a moderator too, with the forms to resolve and dismiss", async () => {
    const { res, text } = await callRead("GET", "/admin/reports", { jar: moderator.jar });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(text).toContain("<h1>举报</h1>");
    expect(text).toContain("这条弹幕在刷屏");
    expect(text).toContain("4 条（弹幕 1，播放问题 3）");
    expect(text).toContain('href="/video/video_031"');
    expect(text).toContain('action="/admin/reports/group"');
    expect(text).toMatch(/<a href="\/admin\/reports" aria-current="page">举报<\/a>/);
  });
});

describe("resolve and dismiss", () => {
  it("one report: resolved with its audit row; a second try is refused", async () => {
    const target = (await queue("?kind=playback")).groups.find((g) => g.titleId === "video_033")!.reports[0];
    const res = await post(`/api/admin/reports/${target.id}/resolve`, moderator.jar);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ count: 1 });
    const row = await env.DB.prepare("SELECT status, resolved_by, resolved_at FROM reports WHERE id = ?")
      .bind(target.id)
      .first<{ status: string; resolved_by: string; resolved_at: number }>();
    expect(row).toMatchObject({ status: "resolved", resolved_by: moderator.email });
    const audit = await lastAudit("report.resolve");
    expect(audit).toMatchObject({ actorEmail: moderator.email, before: { status: "open" }, after: { status: "resolved", count: 1 } });
    expect(audit.target).toContain(`#${target.id}`);

    const again = await post(`/api/admin/reports/${target.id}/dismiss`, admin.jar);
    expect(again.status).toBe(409);
    expect((await again.json<{ error: { code: string; message: string } }>()).error).toEqual({ code: "already_settled", message: "这条举报已处理" });
    expect((await queue("?status=resolved")).groups.map((g) => g.titleId)).toEqual(["video_033"]);
    expect((await post("/api/admin/reports/99999999/resolve", moderator.jar)).status).toBe(404);
    expect((await post(`/api/admin/reports/${target.id}/approve`, moderator.jar)).status).toBe(400);
  });

  it("a title's group of one kind: every open one dismissed in one write, one audit row; the other kind stays open", async () => {
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM admin_audit WHERE action = 'report.dismiss'").first<number>("n");
    const res = await post("/api/admin/reports/group", moderator.jar, { action: "dismiss", title: "video_031", kind: "playback" });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ count: 3 });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM admin_audit WHERE action = 'report.dismiss'").first<number>("n")).toBe((before ?? 0) + 1);
    expect(await lastAudit("report.dismiss")).toMatchObject({ after: { status: "dismissed", count: 3 } });
    const open = await queue();
    expect(open.groups.map((g) => [g.titleId, g.count])).toEqual([["video_031", 1]]);
    expect(open.groups[0].reports[0].kind).toBe("danmaku");

    const nothing = await post("/api/admin/reports/group", moderator.jar, { action: "dismiss", title: "video_031", kind: "playback" });
    expect(nothing.status).toBe(404);
    expect((await nothing.json<{ error: { message: string } }>()).error.message).toBe("该视频没有待处理的举报");
    expect((await post("/api/admin/reports/group", moderator.jar, { action: "dismiss", title: "video_031", kind: "x" })).status).toBe(400);
  });

  it("the page's form resolves and goes back to the queue with a notice; a form from another site is refused", async () => {
    const [report] = (await queue("?kind=danmaku")).groups[0].reports;
    const foreign = await call("POST", `/admin/reports/${report.id}`, {
      jar: moderator.jar,
      form: { action: "resolve", back: "/admin/reports?kind=danmaku" },
      headers: { Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    const res = await call("POST", `/admin/reports/${report.id}`, {
      jar: moderator.jar,
      form: { action: "resolve", back: "/admin/reports?kind=danmaku" },
      headers: SAME_SITE,
    });
    expect(res.status).toBe(303);
    const location = res.headers.get("Location") ?? "";
    expect(location.startsWith("/admin/reports?kind=danmaku&ok=")).toBe(true);
    const { text } = await callRead("GET", location, { jar: moderator.jar });
    expect(text).toContain(`已处理举报 #${report.id}`);
    expect(text).toContain("没有待处理的弹幕举报");
    // `back` outside the queue goes to the queue.
    const group = await call("POST", "/admin/reports/group", {
      jar: moderator.jar,
      form: { action: "resolve", title: "video_031", kind: "", back: "https://evil.example/" },
      headers: SAME_SITE,
    });
    expect(group.status).toBe(303);
    expect(group.headers.get("Location")).toMatch(/^\/admin\/reports\?error=/);
  });
});

describe("概览", () => {
  interface Figures {
    reports: { open: number; openByKind: { danmaku: number; playback: number } };
    playbackFailures: { beacons: { today: number; week: number }; reports: { today: number; week: number }; total: { today: number; week: number } };
  }
  const figures = async () => (await call("GET", "/api/admin/overview", { jar: moderator.jar })).json<Figures>();

  it("open reports and playback failures today and over 7 days come from the reports and the beacons", async () => {
    const before = await figures();
    await sendReport({ kind: "playback", title: "video_035", reason: "unplayable" });
    const beacon = await call("POST", "/api/reports/failure", { json: { title: "video_035" }, ip: uniqueIp(), headers: SAME_SITE });
    expect(await beacon.json()).toEqual({ counted: true });
    const after = await figures();
    expect(after.reports.open).toBe(before.reports.open + 1);
    expect(after.reports.openByKind.playback).toBe(before.reports.openByKind.playback + 1);
    expect(after.playbackFailures.beacons.today).toBe(before.playbackFailures.beacons.today + 1);
    expect(after.playbackFailures.reports.week).toBe(before.playbackFailures.reports.week + 1);
    expect(after.playbackFailures.total.today).toBe(before.playbackFailures.total.today + 2);
    const { text } = await callRead("GET", "/admin", { jar: moderator.jar });
    expect(text).toContain("待处理举报");
    expect(text).toContain("播放失败");
    expect(text).not.toContain("举报功能上线后");
  });
});
