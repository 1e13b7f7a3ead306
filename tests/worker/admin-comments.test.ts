// 评论管理 (worker/admin/comments.ts, docs/decisions/0111-comment-moderation.md): moderators find
// comments by title, user and text with the author's e-mail; removing one leaves 该评论已被删除
// where it had replies, resolves its open 举报, writes an audit row, and is refused to viewers;
// the 举报 queue shows comment reports with their text; a mute of 弹幕管理 also stops comments.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { REMOVED_TEXT, type CommentPage, type CommentReply } from "../../shared/comments/model";
import type { AuditRecord } from "../../worker/admin/audit";
import type { AdminCommentList } from "../../worker/admin/comments";
import { enrolledHolder, post, SAME_SITE, type RoleHolder } from "./helpers/admin";
import { call, callRead, signUp, type Jar } from "./helpers/visitor";

const tag = crypto.randomUUID().slice(0, 6);

let moderator: RoleHolder;
let admin: RoleHolder;

beforeAll(async () => {
  moderator = await enrolledHolder("moderator", `cm-mod-${tag}`);
  admin = await enrolledHolder("admin", `cm-admin-${tag}`);
});

async function comment(jar: Jar, title: string, json: Record<string, unknown>): Promise<CommentReply> {
  const res = await call("POST", `/api/comments/title/${title}`, { jar, json, headers: SAME_SITE });
  expect(res.status, await res.clone().text()).toBe(201);
  const { comment: made } = await res.json<{ comment: CommentReply }>();
  // Past the rate limit's gap: the same account may post again at once.
  await env.DB.prepare("UPDATE comments SET created_at = created_at - 5000 WHERE id = ?").bind(made.id).run();
  return made;
}

async function list(query: Record<string, string>, jar: Jar = moderator.jar): Promise<AdminCommentList> {
  const res = await call("GET", `/api/admin/comments?${new URLSearchParams(query).toString()}`, { jar });
  expect(res.status).toBe(200);
  return res.json<AdminCommentList>();
}

describe("评论管理", () => {
  it("lists comments by title, user and text with the author's e-mail; viewers are refused", async () => {
    const a = await signUp(`cm-a-${tag}`);
    const made = await comment(a.jar, "video_037", { text: `管理列表${tag}` });
    const found = await list({ text: `管理列表${tag}` });
    expect(found.items).toMatchObject([{ id: made.id, titleId: "video_037", user: { email: a.email.toLowerCase() }, state: "live" }]);
    expect((await list({ title: "video_037", user: a.email })).items.map((i) => i.id)).toContain(made.id);
    expect((await call("GET", "/api/admin/comments", { jar: a.jar })).status).toBe(403);
    expect((await post("/api/admin/comments/delete", a.jar, { comments: [made.id] })).status).toBe(403);
    // The page of the screen.
    const { res, text } = await callRead("GET", `/admin/comments?text=${encodeURIComponent(`管理列表${tag}`)}`, { jar: moderator.jar });
    expect(res.status).toBe(200);
    expect(text).toContain(`管理列表${tag}`);
    expect(text).toContain('href="/admin/comments"');
  });

  it("removes a comment: 该评论已被删除 where it had replies, its 举报 resolved, an audit row", async () => {
    const a = await signUp(`cm-del-a-${tag}`);
    const b = await signUp(`cm-del-b-${tag}`);
    const made = await comment(a.jar, "video_038", { text: `违规评论${tag}` });
    await comment(b.jar, "video_038", { text: "下面的回复", replyTo: made.id });
    const reported = await call("POST", "/api/reports", {
      jar: b.jar,
      headers: SAME_SITE,
      json: { kind: "comment", title: "video_038", comment: made.id, reason: "abuse" },
    });
    expect(reported.status).toBe(200);
    // The queue shows it with its text and a delete button.
    const queue = await callRead("GET", "/admin/reports?kind=comment", { jar: moderator.jar });
    expect(queue.text).toContain(`违规评论${tag}`);
    expect(queue.text).toContain('action="/admin/comments/delete"');
    const res = await post("/api/admin/comments/delete", moderator.jar, { comments: [made.id, 99999999] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: 1, missing: 1 });
    const page = await (await call("GET", "/api/comments/title/video_038?sort=new")).json<CommentPage>();
    const shown = page.items.find((i) => i.id === made.id);
    expect(shown).toMatchObject({ removed: true, text: REMOVED_TEXT, replyCount: 1 });
    const report = await env.DB.prepare("SELECT status, resolved_by FROM reports WHERE kind = 'comment' AND target_id = ?").bind(String(made.id)).first();
    expect(report).toEqual({ status: "resolved", resolved_by: moderator.email });
    const audit = await call("GET", `/api/admin/audit?${new URLSearchParams({ action: "comment.delete", target: `评论 ${made.id}` }).toString()}`, {
      jar: admin.jar,
    });
    const [entry] = (await audit.json<{ entries: AuditRecord[] }>()).entries;
    expect(entry).toMatchObject({ actorEmail: moderator.email, action: "comment.delete", after: null });
    expect(entry.before).toMatchObject({ id: made.id, titleId: "video_038", text: `违规评论${tag}` });
    expect((await list({ text: `违规评论${tag}` })).items[0]).toMatchObject({ state: "removed", removedBy: moderator.email });
    // Nothing to remove twice; bad ids are refused.
    expect(await (await post("/api/admin/comments/delete", moderator.jar, { comments: [made.id] })).json()).toEqual({ deleted: 0, missing: 1 });
    expect((await post("/api/admin/comments/delete", moderator.jar, { comments: ["x"] })).status).toBe(400);
    expect((await post("/api/admin/comments/delete", moderator.jar, { comments: [] })).status).toBe(400);
  });

  it("the screen's form removes a selection and goes back to the list", async () => {
    const a = await signUp(`cm-form-${tag}`);
    const made = await comment(a.jar, "video_039", { text: `表单删除${tag}` });
    const res = await call("POST", "/admin/comments/delete", {
      jar: moderator.jar,
      headers: SAME_SITE,
      form: { c: String(made.id), back: "/admin/comments?title=video_039" },
    });
    expect(res.status).toBe(303);
    expect(decodeURIComponent(res.headers.get("Location") ?? "")).toBe("/admin/comments?title=video_039&ok=已删除 1 条评论");
    expect((await list({ text: `表单删除${tag}` })).items[0].state).toBe("removed");
  });

  it("a mute of 弹幕管理 stops comments too", async () => {
    const a = await signUp(`cm-mute-${tag}`);
    const muted = await post("/api/admin/danmaku/mutes", moderator.jar, { user: a.email, duration: "1" });
    expect(muted.status, await muted.clone().text()).toBe(200);
    const res = await call("POST", "/api/comments/title/video_039", { jar: a.jar, json: { text: "禁言后" }, headers: SAME_SITE });
    expect(res.status).toBe(403);
    expect((await res.json<{ error: { message: string } }>()).error.message).toMatch(/^你已被禁言至.+（北京时间）$/);
  });
});
