// 评论区 (worker/comments/api.ts, docs/decisions/0110-comments.md): posting and replying (one
// level, 回复 @nickname), likes (one per account), deleting (only the author here; moderators in
// the 管理后台), the 弹幕 rules with their Chinese errors (length, blocked words of 弹幕管理, mutes,
// the per-account rate across titles, Origin), 最热/最新 order and pages, nicknames (never the
// e-mail), 回复我的 with its unread count, and comment reports in the 举报 queue.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { COMMENT_MESSAGES, COMMENT_PAGE, MAX_COMMENT_CHARS, REMOVED_TEXT, type CommentPage, type CommentReply } from "../../shared/comments/model";
import { cardsByIds } from "../../worker/catalogue/titles";
import { BASE, call, signUp, uniqueIp, type Jar } from "./helpers/visitor";

const SAME_SITE = { Origin: BASE };

async function post(jar: Jar, title: string, json: Record<string, unknown>, headers: Record<string, string> = SAME_SITE): Promise<Response> {
  return call("POST", `/api/comments/title/${title}`, { jar, json, headers, ip: uniqueIp() });
}

/** Posts and returns the comment; the post is then aged past the rate limit's gap, so the same account may post again at once. */
async function posted(jar: Jar, title: string, json: Record<string, unknown>): Promise<CommentReply> {
  const res = await post(jar, title, json);
  expect(res.status, await res.clone().text()).toBe(201);
  const { comment } = await res.json<{ comment: CommentReply }>();
  await age(comment.id, 5_000);
  return comment;
}

/** Moves a comment `ms` into the past (its created time). */
async function age(id: number, ms: number): Promise<void> {
  await env.DB.prepare("UPDATE comments SET created_at = created_at - ? WHERE id = ?").bind(ms, id).run();
}

async function list(title: string, query = "", jar?: Jar): Promise<CommentPage> {
  const res = await call("GET", `/api/comments/title/${title}${query}`, { jar });
  expect(res.status).toBe(200);
  return res.json<CommentPage>();
}

const errorOf = async (res: Response) => (await res.json<{ error: { code: string; message: string } }>()).error;

describe("/api/comments", () => {
  it("posts a comment and a reply from two accounts; the nickname is shown, never the e-mail", async () => {
    const a = await signUp("comments-a");
    const b = await signUp("comments-b");
    const nick = await call("PUT", "/api/comments/me/nickname", { jar: a.jar, headers: SAME_SITE, json: { nickname: "  小明  " } });
    expect(nick.status).toBe(200);
    const first = await posted(a.jar, "video_021", { text: "  第一条评论\n\n\n\n第二段  ", episode: null });
    expect(first).toMatchObject({ nickname: "小明", text: "第一条评论\n\n第二段", mine: true, replyTo: null });
    const reply = await posted(b.jar, "video_021", { text: "回复一下", replyTo: first.id });
    expect(reply.nickname).toMatch(/^用户[0-9a-f]{8}$/);
    // A reply to a reply joins the same thread and names who it answers.
    const again = await posted(a.jar, "video_021", { text: "谢谢", replyTo: reply.id });
    expect(again.replyTo).toBe(reply.nickname);
    const page = await list("video_021", "?sort=new");
    expect(page.total).toBe(3);
    const item = page.items.find((i) => i.id === first.id);
    expect(item).toMatchObject({ replyCount: 2, removed: false });
    expect(item?.replies.map((r) => [r.text, r.replyTo])).toEqual([
      ["回复一下", null],
      ["谢谢", reply.nickname],
    ]);
    // Signed out: nothing says whose it is.
    expect(item).not.toHaveProperty("mine");
    const raw = JSON.stringify(page);
    expect(raw).not.toContain(a.email);
    expect(raw).not.toContain(b.email);
    expect(raw).not.toContain("user_id");
    // The thread's replies, paged.
    const replies = await call("GET", `/api/comments/title/video_021/replies/${first.id}`);
    expect((await replies.json<{ items: CommentReply[] }>()).items.map((r) => r.id)).toEqual([reply.id, again.id]);
  });

  it("refuses a signed-out writer, a write from another site and a reply to another title's comment", async () => {
    for (const [method, path] of [
      ["POST", "/api/comments/title/video_022"],
      ["DELETE", "/api/comments/item/1"],
      ["PUT", "/api/comments/item/1/like"],
      ["PUT", "/api/comments/me/nickname"],
    ] as const) {
      const res = await call(method, path, { headers: SAME_SITE, json: { text: "x", nickname: "x" } });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect((await errorOf(res)).message).toBe(path.endsWith("/like") ? COMMENT_MESSAGES.signInToLike : COMMENT_MESSAGES.notSignedIn);
    }
    const { jar } = await signUp("comments-origin");
    for (const headers of [{ Origin: "https://evil.test" }, {}] as Array<Record<string, string>>) {
      const res = await post(jar, "video_022", { text: "跨站" }, headers);
      expect(res.status).toBe(403);
      expect(await errorOf(res)).toEqual({ code: "foreign", message: "禁止跨站请求" });
    }
    expect((await list("video_022")).total).toBe(0);
    // A film's comment names no episode (the label is for series).
    const other = await posted(jar, "video_023", { text: "别处的评论", episode: 1 });
    expect(other.episode).toBeNull();
    const res = await post(jar, "video_022", { text: "回复", replyTo: other.id });
    expect(res.status).toBe(404);
    expect((await errorOf(res)).message).toBe(COMMENT_MESSAGES.unknownComment);
    expect((await post(jar, "video_999", { text: "没有这部" })).status).toBe(404);
    expect(await errorOf(await post(jar, "video_022", { text: "集数", episode: 4 }))).toEqual({ code: "badEpisode", message: "集数无效" });
  });

  it("applies the 弹幕 rules: length 1–1,000, controls, blocked words of 弹幕管理, mutes", async () => {
    const { jar } = await signUp("comments-rules");
    expect(await errorOf(await post(jar, "video_024", { text: "   " }))).toEqual({ code: "empty", message: "评论内容不能为空" });
    expect(await errorOf(await post(jar, "video_024", { text: "字".repeat(MAX_COMMENT_CHARS + 1) }))).toEqual({
      code: "tooLong",
      message: "评论不能超过 1000 个字",
    });
    expect((await errorOf(await post(jar, "video_024", { text: "a\u202eb" }))).code).toBe("control");
    // The default list, folded (width, traditional characters, invisible characters).
    expect(await errorOf(await post(jar, "video_024", { text: "你个傻\u200b逼" }))).toEqual({ code: "blocked", message: "内容包含屏蔽词" });
    await env.DB.prepare("UPDATE danmaku_words SET words = ?, version = version + 1 WHERE id = 1")
      .bind(JSON.stringify(["剧透党"]))
      .run();
    try {
      expect((await errorOf(await post(jar, "video_024", { text: "我是剧透党" }))).code).toBe("blocked");
      await posted(jar, "video_024", { text: "字".repeat(MAX_COMMENT_CHARS) });
    } finally {
      await env.DB.prepare("UPDATE danmaku_words SET words = NULL, version = version + 1 WHERE id = 1").run();
    }
    const me = await call("GET", "/api/comments/me", { jar });
    expect(me.status).toBe(200);
    const author = await env.DB.prepare("SELECT user_id FROM comments WHERE title_id = 'video_024' LIMIT 1").first<string>("user_id");
    await env.DB.prepare("INSERT INTO danmaku_mutes (user_id, email, until, muted_at, muted_by) VALUES (?, NULL, NULL, 0, 'mod@test')").bind(author).run();
    const muted = await post(jar, "video_024", { text: "禁言中" });
    expect(muted.status).toBe(403);
    expect(await errorOf(muted)).toEqual({ code: "muted", message: "你已被永久禁言" });
  });

  it("limits each account's rate across titles, with Retry-After", async () => {
    const { jar } = await signUp("comments-rate");
    expect((await post(jar, "video_025", { text: "第一条" })).status).toBe(201);
    const fast = await post(jar, "video_026", { text: "另一部也不行" });
    expect(fast.status).toBe(429);
    expect(Number(fast.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await errorOf(fast)).toEqual({ code: "tooFast", message: "发送太频繁，请稍后再试" });
    // Another account is not held back.
    const other = await signUp("comments-rate-2");
    expect((await post(other.jar, "video_026", { text: "我可以" })).status).toBe(201);
  });

  it("likes once per account; liking again changes nothing; a like can be taken back", async () => {
    const a = await signUp("comments-like-a");
    const b = await signUp("comments-like-b");
    const c = await posted(a.jar, "video_027", { text: "点赞我" });
    const like = (jar: Jar, method: "PUT" | "DELETE") => call(method, `/api/comments/item/${c.id}/like`, { jar, headers: SAME_SITE });
    expect(await (await like(b.jar, "PUT")).json()).toEqual({ likes: 1, liked: true });
    expect(await (await like(b.jar, "PUT")).json()).toEqual({ likes: 1, liked: true });
    expect(await (await like(a.jar, "PUT")).json()).toEqual({ likes: 2, liked: true });
    expect((await list("video_027", "", b.jar)).items[0]).toMatchObject({ likes: 2, liked: true, mine: false });
    expect(await (await like(b.jar, "DELETE")).json()).toEqual({ likes: 1, liked: false });
    expect((await call("PUT", "/api/comments/item/99999999/like", { jar: b.jar, headers: SAME_SITE })).status).toBe(404);
  });

  it("only the author deletes; a deleted comment with replies shows 该评论已被删除, without them it is gone", async () => {
    const a = await signUp("comments-del-a");
    const b = await signUp("comments-del-b");
    const lonely = await posted(a.jar, "video_028", { text: "没人回复" });
    const talked = await posted(a.jar, "video_028", { text: "有人回复" });
    await posted(b.jar, "video_028", { text: "我来回复", replyTo: talked.id });
    const refused = await call("DELETE", `/api/comments/item/${talked.id}`, { jar: b.jar, headers: SAME_SITE });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toBe("只能删除自己的评论");
    for (const c of [lonely, talked]) expect((await call("DELETE", `/api/comments/item/${c.id}`, { jar: a.jar, headers: SAME_SITE })).status).toBe(200);
    const page = await list("video_028", "?sort=new");
    expect(page.items.map((i) => i.id)).toEqual([talked.id]);
    expect(page.items[0]).toMatchObject({ removed: true, text: REMOVED_TEXT, nickname: "", replyCount: 1 });
    expect(page.total).toBe(1);
    expect((await call("DELETE", `/api/comments/item/${talked.id}`, { jar: a.jar, headers: SAME_SITE })).status).toBe(404);
    // Nothing can be added under it any more.
    expect((await post(b.jar, "video_028", { text: "再回复", replyTo: talked.id })).status).toBe(404);
  });

  it("orders by 最新 and by 最热 (likes and replies, with age), a page at a time", async () => {
    const a = await signUp("comments-order");
    const fans = await Promise.all([signUp("comments-fan-1"), signUp("comments-fan-2")]);
    const old = await posted(a.jar, "video_029", { text: "旧而热" });
    const middle = await posted(a.jar, "video_029", { text: "中间" });
    const fresh = await posted(a.jar, "video_029", { text: "新" });
    await age(old.id, 2 * 3_600_000);
    await age(middle.id, 3_600_000);
    for (const fan of fans) await call("PUT", `/api/comments/item/${old.id}/like`, { jar: fan.jar, headers: SAME_SITE });
    expect((await list("video_029", "?sort=new")).items.map((i) => i.text)).toEqual(["新", "中间", "旧而热"]);
    // 最热: (2 likes + 1) / (2 h + 2) beats (0 + 1) / (0 h + 2)? 0.75 vs 0.5 — the liked one leads, then the newest.
    expect((await list("video_029", "?sort=hot")).items.map((i) => i.id)).toEqual([old.id, fresh.id, middle.id]);
    // Pages: COMMENT_PAGE a page, `more` while another follows.
    const many = await env.DB.batch(
      Array.from({ length: COMMENT_PAGE }, (_, i) =>
        env.DB.prepare("INSERT INTO comments (title_id, user_id, text, created_at) VALUES ('video_029', 'seeded', ?, ?)").bind(
          `批量${i}`,
          Date.now() - 10_000_000 - i,
        ),
      ),
    );
    expect(many).toHaveLength(COMMENT_PAGE);
    const one = await list("video_029", "?sort=new&page=1");
    const two = await list("video_029", "?sort=new&page=2");
    expect(one.items).toHaveLength(COMMENT_PAGE);
    expect(one.more).toBe(true);
    expect(two.items).toHaveLength(3);
    expect(two.more).toBe(false);
    expect(new Set([...one.items, ...two.items].map((i) => i.id)).size).toBe(COMMENT_PAGE + 3);
  });

  it("回复我的: replies by others, an unread count, marked read", async () => {
    const a = await signUp("comments-inbox-a");
    const b = await signUp("comments-inbox-b");
    const mine = await posted(a.jar, "video_030", { text: "我的评论" });
    await posted(a.jar, "video_030", { text: "自己回复自己", replyTo: mine.id });
    await posted(b.jar, "video_030", { text: "别人回复", replyTo: mine.id });
    const me = await (await call("GET", "/api/comments/me", { jar: a.jar })).json<{ unread: number; nickname: string }>();
    expect(me.unread).toBe(1);
    const inbox = await (
      await call("GET", "/api/comments/me/replies", { jar: a.jar })
    ).json<{ items: Array<{ text: string; answered: string; unread: boolean; title: string }> }>();
    expect(inbox.items).toMatchObject([{ text: "别人回复", answered: "我的评论", unread: true }]);
    expect((await call("POST", "/api/comments/me/replies/seen", { jar: a.jar, headers: SAME_SITE })).status).toBe(200);
    expect((await (await call("GET", "/api/comments/me", { jar: a.jar })).json<{ unread: number }>()).unread).toBe(0);
    expect((await (await call("GET", "/api/comments/me", { jar: b.jar })).json<{ unread: number }>()).unread).toBe(0);
  });

  it("举报 of a comment goes into the queue with its text; signed out is refused", async () => {
    const a = await signUp("comments-report-a");
    const b = await signUp("comments-report-b");
    const c = await posted(a.jar, "video_031", { text: "要被举报的评论" });
    const body = { kind: "comment", title: "video_031", comment: c.id, reason: "spam" };
    const signedOut = await call("POST", "/api/reports", { json: body, headers: SAME_SITE });
    expect(signedOut.status).toBe(401);
    expect((await errorOf(signedOut)).message).toBe("请先登录后再举报评论");
    const res = await call("POST", "/api/reports", { json: body, jar: b.jar, headers: SAME_SITE });
    expect(res.status).toBe(200);
    const row = await env.DB.prepare("SELECT kind, target_id, target_text, status FROM reports WHERE title_id = 'video_031'").first();
    expect(row).toEqual({ kind: "comment", target_id: String(c.id), target_text: "要被举报的评论", status: "open" });
    const missing = await call("POST", "/api/reports", { json: { ...body, comment: c.id + 100000 }, jar: b.jar, headers: SAME_SITE });
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).message).toBe("这条评论不存在或已被删除");
  });

  it("cards carry the title's comment count once it has comments", async () => {
    const id = "video_044";
    const [before] = await cardsByIds(env.DB, [id]);
    const { jar } = await signUp("comment-card");
    await posted(jar, id, { text: "卡片上的评论数" });
    const [after] = await cardsByIds(env.DB, [id]);
    expect(after.comments).toBe((before.comments ?? 0) + 1);
  });

  it("nicknames follow the rules", async () => {
    const { jar } = await signUp("comments-nick");
    const put = (nickname: unknown) => call("PUT", "/api/comments/me/nickname", { jar, headers: SAME_SITE, json: { nickname } });
    expect(await errorOf(await put(" "))).toEqual({ code: "nicknameEmpty", message: "昵称不能为空" });
    expect((await errorOf(await put("长".repeat(21)))).message).toBe("昵称不能超过 20 个字");
    expect((await errorOf(await put("草泥马"))).message).toBe("昵称包含屏蔽词");
    expect(await (await put("影迷")).json()).toEqual({ nickname: "影迷", chosen: true });
  });
});
