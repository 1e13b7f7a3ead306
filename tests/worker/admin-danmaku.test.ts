// 弹幕管理 (worker/admin/danmaku.ts, docs/decisions/0076-danmaku-moderation.md): the comments of
// every room found by title, episode, user, text and day; a delete leaves the room's history, its
// reads (even an edge-cached one) and every open socket at once; the blocked words saved on the web
// apply to the next post, also on a socket opened before; a mute refuses posts over HTTP and the
// socket with until when, ends by itself, and is lifted; each write leaves its audit row.
import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { beijingMinute } from "../../shared/danmaku/moderation";
import type { DanmakuComment } from "../../shared/danmaku/model";
import type { AuditRecord } from "../../worker/admin/audit";
import type { DanmakuList, Mute, WordsView } from "../../worker/admin/danmaku";
import { enrolledHolder, post, SAME_SITE, type RoleHolder } from "./helpers/admin";
import { BASE, isType, openSocket } from "./helpers/danmaku-socket";
import { call, callRead, signUp, type Jar } from "./helpers/visitor";

const tag = crypto.randomUUID().slice(0, 6);

interface Poster {
  email: string;
  id: string;
  jar: Jar;
}

async function poster(name: string): Promise<Poster> {
  const { email, jar } = await signUp(`${name}-${tag}`);
  const { user } = await (await call("GET", "/api/auth/user", { jar })).json<{ user: { id: string } }>();
  return { email, id: user.id, jar };
}

/** Forgets `who`'s recent posts in the rate limiter (at most one per 2 s otherwise). */
async function forgetRate(who: Poster): Promise<void> {
  await runInDurableObject(env.DANMAKU_LIMIT.get(env.DANMAKU_LIMIT.idFromName(who.id)), (_, state) => {
    state.storage.sql.exec("DELETE FROM posts");
  });
}

/** DPlayer's POST as the site's player sends it. */
async function postV3(who: Poster, room: string, text: string, time = 1): Promise<{ status: number; code: number; msg?: string; data?: DanmakuComment }> {
  await forgetRate(who);
  const res = await call("POST", "/api/danmaku/v3/", { jar: who.jar, json: { id: room, time, text }, headers: { Origin: BASE } });
  return { status: res.status, ...(await res.json<{ code: number; msg?: string; data?: DanmakuComment }>()) };
}

async function posted(who: Poster, room: string, text: string, time = 1): Promise<DanmakuComment> {
  const res = await postV3(who, room, text, time);
  expect(res.status, JSON.stringify(res)).toBe(200);
  return res.data!;
}

let moderator: RoleHolder;
let admin: RoleHolder;

beforeAll(async () => {
  moderator = await enrolledHolder("moderator", `dm-mod-${tag}`);
  admin = await enrolledHolder("admin", `dm-admin-${tag}`);
});

async function list(query: Record<string, string>, jar: Jar = moderator.jar): Promise<DanmakuList> {
  const res = await call("GET", `/api/admin/danmaku?${new URLSearchParams(query).toString()}`, { jar });
  expect(res.status).toBe(200);
  return res.json<DanmakuList>();
}

async function audit(action: string, target: string): Promise<AuditRecord[]> {
  const res = await call("GET", `/api/admin/audit?${new URLSearchParams({ action, target }).toString()}`, { jar: admin.jar });
  return (await res.json<{ entries: AuditRecord[] }>()).entries;
}

const textsOf = (found: DanmakuList) => found.items.map((i) => i.text);

describe("the list", () => {
  it("finds the comments of every room by title, episode, user, text and day, the newest first, with the poster's e-mail", async () => {
    const [a, b] = [await poster("dm-list-a"), await poster("dm-list-b")];
    await posted(a, "video_032~2", `甲一${tag}`);
    await posted(b, "video_032~3", `乙一${tag}`);
    await posted(a, "video_037~2", `甲二${tag}`);
    const title = await env.DB.prepare("SELECT title FROM catalogue_titles WHERE id = 'video_032'").first<{ title: string }>();

    const all = await list({ text: tag });
    expect(textsOf(all)).toEqual([`甲二${tag}`, `乙一${tag}`, `甲一${tag}`]);
    expect(all.items[0]).toMatchObject({ room: "video_037~2", videoId: "video_037", episode: 2, user: { id: a.id, email: a.email } });
    expect(all.items[0].title).not.toBe("video_037");

    expect(textsOf(await list({ text: tag, title: title!.title.slice(0, 2) }))).toEqual([`乙一${tag}`, `甲一${tag}`]);
    expect(textsOf(await list({ text: tag, title: "video_032", episode: "3" }))).toEqual([`乙一${tag}`]);
    expect(textsOf(await list({ text: tag, user: a.email.toUpperCase() }))).toEqual([`甲二${tag}`, `甲一${tag}`]);
    expect(textsOf(await list({ text: tag, user: b.id }))).toEqual([`乙一${tag}`]);
    expect(textsOf(await list({ text: `乙一${tag}` }))).toEqual([`乙一${tag}`]);
    const today = beijingMinute(Date.now()).slice(0, 10);
    expect(textsOf(await list({ text: tag, from: today, to: today }))).toHaveLength(3);
    expect(textsOf(await list({ text: tag, to: "2020-01-01" }))).toEqual([]);
    const unknown = await list({ user: `nobody-${tag}@example.com` });
    expect(unknown.items).toEqual([]);
    expect(unknown.problem).toContain("没有找到邮箱为");

    // The page shows the same, at /admin/danmaku, to a moderator.
    const { res, text } = await callRead("GET", `/admin/danmaku?text=${encodeURIComponent(tag)}`, { jar: moderator.jar });
    expect(res.status).toBe(200);
    expect(text).toContain(`甲二${tag}`);
    expect(text).toContain(a.email);
    expect(text).toContain('name="c" value="video_037~2:');
  });

  it("pages back with the cursor", async () => {
    const c = await poster("dm-pages");
    for (let i = 0; i < 3; i++) await posted(c, "video_038~2", `翻页${i}${tag}`);
    const first = await list({ text: `翻页`, user: c.id });
    expect(first.next).toBeNull();
    expect(textsOf(first)).toEqual([`翻页2${tag}`, `翻页1${tag}`, `翻页0${tag}`]);
    expect(textsOf(await list({ user: c.id, before: String(first.items[0].seq) }))).toEqual([`翻页1${tag}`, `翻页0${tag}`]);
  });
});

describe("comments a room stored before the index existed", () => {
  it("are put in the index once, by the room, with their poster: the list finds them", async () => {
    const who = await poster("dm-old");
    const room = "video_017";
    const text = `索引之前的弹幕${tag}`;
    const comment = await posted(who, room, text);
    // As a room of before migrations/0014: the comment is in its storage, not in the index, and
    // the room never indexed its history (a fresh instance).
    await env.DB.prepare("DELETE FROM danmaku_posts WHERE room = ? AND comment_id = ?").bind(room, comment.id).run();
    const stub = env.DANMAKU.get(env.DANMAKU.idFromName(room));
    await runInDurableObject(stub, (instance, state) => {
      state.storage.sql.exec("DELETE FROM meta WHERE key = 'indexed'");
      (instance as unknown as { indexChecked: boolean }).indexChecked = false;
    });
    expect(textsOf(await list({ text }))).toEqual([]);

    expect((await callRead("GET", `/api/danmaku/${room}`)).res.status).toBe(200); // a viewer opens the room
    await expect.poll(async () => textsOf(await list({ text }))).toEqual([text]);
    expect((await list({ text })).items[0]).toMatchObject({ commentId: comment.id, user: { id: who.id, email: who.email } });
  });
});

describe("deleting", () => {
  it("one comment leaves the room's history, its reads (an edge-cached one too), the list and every open socket at once", async () => {
    const room = "video_038~3";
    const who = await poster("dm-del-one");
    const kept = await posted(who, room, `留下${tag}`, 1);
    const gone = await posted(who, room, `删除${tag}`, 2);
    const viewer = await openSocket(room);
    await viewer.next(isType("hello"));
    // The v3 read is in the edge cache now.
    await call("GET", `/api/danmaku/v3/?id=${room}`);
    expect((await call("GET", `/api/danmaku/v3/?id=${room}`)).headers.get("X-Cache")).toBe("HIT");

    const res = await post("/api/admin/danmaku/delete", moderator.jar, { comments: [`${room}:${gone.id}`] });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ deleted: 1, missing: 0 });
    expect(await viewer.next(isType("delete"))).toEqual({ type: "delete", ids: [gone.id] });

    const v3 = await (await call("GET", `/api/danmaku/v3/?id=${room}`)).json<{ data: unknown[][] }>();
    expect(v3.data.map((d) => d[4])).toEqual([`留下${tag}`]);
    const window = await (await call("GET", `/api/danmaku/${room}`)).json<{ comments: DanmakuComment[] }>();
    expect(window.comments.map((c) => c.id)).toEqual([kept.id]);
    expect(textsOf(await list({ text: tag, title: "video_038", episode: "3" }))).toEqual([`留下${tag}`]);
    // A socket opening just after hears it too (its window read may be a few seconds old).
    const late = await openSocket(room);
    expect(await late.next(isType("delete"))).toEqual({ type: "delete", ids: [gone.id] });

    const [entry] = await audit("danmaku.delete", `${room}:${gone.id}`);
    expect(entry).toMatchObject({ actorEmail: moderator.email, before: { room, id: gone.id, text: `删除${tag}`, user: who.id }, after: null });
    // Again: nothing is left to delete.
    expect(await (await post("/api/admin/danmaku/delete", moderator.jar, { comments: [`${room}:${gone.id}`] })).json()).toEqual({ deleted: 0, missing: 1 });
    viewer.ws.close();
    late.ws.close();
  });

  it("a selection from the page's form, across rooms; bad or empty selections are refused in Chinese", async () => {
    const who = await poster("dm-del-many");
    const one = await posted(who, "video_042~2", `选一${tag}`);
    const two = await posted(who, "video_042~3", `选二${tag}`);
    const viewer = await openSocket("video_042~3");
    await viewer.next(isType("hello"));
    const form = new URLSearchParams([
      ["c", `video_042~2:${one.id}`],
      ["c", `video_042~3:${two.id}`],
      ["back", `/admin/danmaku?text=${tag}`],
    ]);
    const res = await call("POST", "/admin/danmaku/delete", {
      jar: moderator.jar,
      body: form.toString(),
      headers: { ...SAME_SITE, "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(303);
    expect(decodeURIComponent(res.headers.get("Location") ?? "")).toContain("已删除 2 条弹幕");
    expect(await viewer.next(isType("delete"))).toEqual({ type: "delete", ids: [two.id] });
    expect(textsOf(await list({ text: tag, user: who.id }))).toEqual([]);
    viewer.ws.close();

    const empty = await post("/api/admin/danmaku/delete", moderator.jar, { comments: [] });
    expect(empty.status).toBe(400);
    expect((await empty.json<{ error: { message: string } }>()).error.message).toBe("请先选择要删除的弹幕");
    const bad = await post("/api/admin/danmaku/delete", moderator.jar, { comments: ["video_042:x"] });
    expect(bad.status).toBe(400);
    expect((await bad.json<{ error: { code: string } }>()).error.code).toBe("bad_comment");
  });
});

describe("blocked words", () => {
  it("saved on the web apply to the next post, over HTTP and on a socket opened before; saving nothing restores the default list", async () => {
    const room = "video_044~2";
    const who = await poster("dm-words");
    const socket = await openSocket(room, { jar: who.jar });
    expect(await socket.next(isType("hello"))).toMatchObject({ canPost: true });
    const before = await (await call("GET", "/api/admin/danmaku/words", { jar: moderator.jar })).json<WordsView>();
    expect(before.saved).toBe(false);
    expect(before.words).toContain("傻逼");

    const saved = await post("/api/admin/danmaku/words", moderator.jar, { version: before.version, words: "剧透\n广告位" });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(await saved.json()).toMatchObject({ saved: true, words: ["剧透", "广告位"], version: before.version + 1 });
    expect(await postV3(who, room, "前方剧透")).toMatchObject({ status: 400, msg: "内容包含屏蔽词" });
    await forgetRate(who);
    socket.send({ type: "post", nonce: "n1", time: 1, text: "前方劇透" });
    expect(await socket.next(isType("error"))).toMatchObject({ nonce: "n1", code: "blocked", message: "内容包含屏蔽词" });
    // The saved list replaces the default one.
    expect((await postV3(who, room, "傻逼")).status).toBe(200);

    const stale = await post("/api/admin/danmaku/words", moderator.jar, { version: before.version, words: "别的" });
    expect(stale.status).toBe(409);
    expect((await stale.json<{ error: { message: string } }>()).error.message).toBe("屏蔽词已被其他人修改，请刷新页面后重新填写");

    const reset = await post("/api/admin/danmaku/words", moderator.jar, { version: before.version + 1, words: "" });
    expect(await reset.json()).toMatchObject({ saved: false, words: before.defaults });
    expect((await postV3(who, room, "前方剧透")).status).toBe(200);
    expect(await postV3(who, room, "傻逼")).toMatchObject({ status: 400, msg: "内容包含屏蔽词" });

    const entries = await audit("danmaku.words", "弹幕屏蔽词");
    expect(entries.slice(0, 2).map((e) => [e.before, e.after])).toEqual([
      [{ words: ["剧透", "广告位"] }, { words: "默认" }],
      [{ words: "默认" }, { words: ["剧透", "广告位"] }],
    ]);

    // A long list (larger than a form's 16 KB) is taken; more than 1,000 words are refused.
    const many = Array.from({ length: 1000 }, (_, i) => `屏蔽测试${String(i).padStart(4, "0")}`);
    const long = await post("/api/admin/danmaku/words", moderator.jar, { version: before.version + 2, words: many.join("\n") });
    expect(long.status, await long.clone().text()).toBe(200);
    expect((await long.json<WordsView>()).words).toHaveLength(1000);
    const tooMany = await post("/api/admin/danmaku/words", moderator.jar, { version: before.version + 3, words: [...many, "再多一个"].join("\n") });
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json<{ error: { message: string } }>()).error.message).toBe("屏蔽词最多 1000 个");
    expect((await post("/api/admin/danmaku/words", moderator.jar, { version: before.version + 3, words: "" })).status).toBe(200);
    socket.ws.close();
  });
});

describe("muting", () => {
  it("refuses the user's posts over HTTP and the socket with until when, ends by itself, for good says so, and is lifted", async () => {
    const room = "video_044~3";
    const who = await poster("dm-mute");
    const socket = await openSocket(room, { jar: who.jar });
    await socket.next(isType("hello"));
    await posted(who, room, `禁言前${tag}`);

    const muted = await post("/api/admin/danmaku/mutes", moderator.jar, { user: who.email, duration: "7" });
    expect(muted.status, await muted.clone().text()).toBe(200);
    const mute = await muted.json<Mute>();
    expect(mute.until! - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const message = `你已被禁言至${beijingMinute(mute.until!)}（北京时间）`;
    expect(await postV3(who, room, `禁言中${tag}`)).toMatchObject({ status: 403, msg: message });
    socket.send({ type: "post", nonce: "m1", time: 1, text: `禁言中${tag}` });
    expect(await socket.next(isType("error"))).toEqual({ type: "error", nonce: "m1", code: "muted", message });
    expect((await (await call("GET", "/api/admin/danmaku/mutes", { jar: moderator.jar })).json<{ mutes: Mute[] }>()).mutes[0]).toMatchObject({
      user: { id: who.id, email: who.email },
      mutedBy: moderator.email,
    });
    // 用户管理's account page (管理员) shows it.
    expect((await callRead("GET", `/admin/users/${who.id}`, { jar: admin.jar })).text).toContain(`禁言至 ${beijingMinute(mute.until!)}`);

    // It ends by itself when its time has come.
    await env.DB.prepare("UPDATE danmaku_mutes SET until = ? WHERE user_id = ?")
      .bind(Date.now() - 1, who.id)
      .run();
    expect((await postV3(who, room, `到期后${tag}`)).status).toBe(200);

    expect((await post("/api/admin/danmaku/mutes", moderator.jar, { user: who.id, duration: "forever" })).status).toBe(200);
    await forgetRate(who);
    socket.send({ type: "post", nonce: "m2", time: 1, text: `永久${tag}` });
    expect(await socket.next(isType("error"))).toMatchObject({ nonce: "m2", code: "muted", message: "你已被永久禁言" });

    const lifted = await post("/api/admin/danmaku/unmute", moderator.jar, { user: who.id });
    expect(lifted.status).toBe(200);
    await forgetRate(who);
    socket.send({ type: "post", nonce: "m3", time: 1, text: `解除后${tag}` });
    expect(await socket.next(isType("ack"))).toMatchObject({ nonce: "m3", comment: { text: `解除后${tag}` } });
    expect((await post("/api/admin/danmaku/unmute", moderator.jar, { user: who.id })).status).toBe(404);

    const entries = await audit("danmaku.mute", who.email);
    expect(entries.map((e) => [e.before, e.after])).toEqual([
      [{ mutedUntil: null }, { mutedUntil: "永久" }],
      [{ mutedUntil: null }, { mutedUntil: beijingMinute(mute.until!) }],
    ]);
    expect((await audit("danmaku.unmute", who.email))[0]).toMatchObject({ before: { mutedUntil: "永久" }, after: { mutedUntil: null } });
    const bad = await post("/api/admin/danmaku/mutes", moderator.jar, { user: who.id, duration: "2" });
    expect((await bad.json<{ error: { message: string } }>()).error.message).toBe("禁言时长只能是 1 天、7 天、30 天或永久");
    socket.ws.close();
  });
});
