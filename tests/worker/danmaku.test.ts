// 弹幕 inside workerd: the DanmakuRoom Durable Object behind /api/danmaku — posting (DPlayer v3
// POST and the room's WebSocket), reading (time window, v3 shape), live broadcast, resume
// without duplicates or gaps, the checks (signed in, Origin, rate limit, blocked words, length)
// and a room that was evicted from memory.
import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_COMMENTS_PER_ROOM, type DanmakuComment, type DanmakuDraft, type ServerMessage } from "../../shared/danmaku/model";
import { BASE, isType, openSocket } from "./helpers/danmaku-socket";
import { call, signUp, type Jar } from "./helpers/visitor";

interface UserBody {
  user: { id: string };
}
/** The DPlayer v3 answer: code 0 with the comment, or code 1 with a message. */
interface V3Answer {
  code: number;
  msg?: string;
  data?: DanmakuComment;
}
interface WindowBody {
  comments: DanmakuComment[];
}
interface ErrorBody {
  error: { message: string };
}
/** A checked comment, stored straight into a room (no rate limit). */
const draft = (time: number, text: string): DanmakuDraft => ({ time, text, mode: "scroll", color: "#ffffff" });
let videoSeq = 0;
/** A video nobody else in this file uses (each test its own room and cache entries). */
const freshVideo = () => `video_0${String(10 + ++videoSeq).padStart(2, "0")}`;

async function userId(jar: Jar): Promise<string> {
  const res = await call("GET", "/api/auth/user", { jar });
  const body = await res.json<UserBody>();
  return body.user.id;
}

function postV3(jar: Jar | undefined, body: Record<string, unknown>, headers: Record<string, string> = { Origin: BASE }, envOverride?: Partial<Env>) {
  return call("POST", "/api/danmaku/v3/", { jar, json: body, headers, env: envOverride });
}

describe("posting and reading", () => {
  it("a signed-in POST is stored under the user id and read back by window and in DPlayer's v3 shape", async () => {
    const video = freshVideo();
    const { email, jar } = await signUp("dm-post");
    const id = await userId(jar);
    const res = await postV3(jar, { id: video, author: "ignored", time: 12.54, text: "  前方高能  ", color: 16777215, type: 0 });
    expect(res.status, await res.clone().text()).toBe(200);
    const posted = await res.json<V3Answer & { data: DanmakuComment }>();
    expect(posted.code).toBe(0);
    expect(posted.data).toMatchObject({
      time: 12.5,
      text: "前方高能",
      mode: "scroll",
      color: "#ffffff",
      author: expect.stringMatching(/^[\w-]{16}$/) as string,
    });
    // The room's opaque value of the author, never the account id (tests/worker/danmaku-authors.test.ts).
    const author = posted.data.author;
    expect(author).not.toBe(id);
    expect(JSON.stringify(posted)).not.toContain(email);

    const top = await postV3((await signUp("dm-post2")).jar, { id: video, time: 80, text: "顶部弹幕", color: "#FE0302", type: 1 });
    expect(top.status).toBe(200);

    const window = await call("GET", `/api/danmaku/${video}?from=10&to=20`);
    expect(window.status).toBe(200);
    expect(window.headers.get("Cache-Control")).toMatch(/max-age=\d+/);
    const body = await window.json<WindowBody>();
    expect(body.comments.map((c) => c.text)).toEqual(["前方高能"]);

    const v3 = await call("GET", `/api/danmaku/v3/?id=${video}`);
    expect(v3.status).toBe(200);
    const v3Body = {
      code: 0,
      data: [
        [12.5, 0, 0xffffff, author, "前方高能"],
        [80, 1, 0xfe0302, expect.any(String), "顶部弹幕"],
      ],
    };
    expect(await v3.json()).toEqual(v3Body);

    // The same reads again come from the edge cache, unchanged, with the site's headers.
    const again = await call("GET", `/api/danmaku/${video}?from=10&to=20`);
    expect(again.status).toBe(200);
    expect(again.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect((await again.json<WindowBody>()).comments.map((c) => c.text)).toEqual(["前方高能"]);
    const v3Again = await call("GET", `/api/danmaku/v3/?id=${video}`);
    expect(v3Again.status).toBe(200);
    expect(await v3Again.json()).toEqual(v3Body);
  });

  it("refuses a signed-out post, a foreign or missing Origin, an unknown video and malformed bodies", async () => {
    const video = freshVideo();
    const signedOut = await postV3(undefined, { id: video, time: 1, text: "你好" });
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toEqual({ code: 1, msg: "请先登录后再发送弹幕" });

    const { jar } = await signUp("dm-origin");
    const foreign = await postV3(jar, { id: video, time: 1, text: "你好" }, { Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await foreign.json<V3Answer>()).msg).toBe("禁止跨站请求");
    expect((await postV3(jar, { id: video, time: 1, text: "你好" }, {})).status).toBe(403);
    expect((await postV3(jar, { id: "video_999", time: 1, text: "你好" })).status).toBe(404);
    const notJson = await call("POST", "/api/danmaku/v3/", { jar, headers: { Origin: BASE, "Content-Type": "application/json" }, form: { a: "b" } });
    expect(notJson.status).toBe(400);
    const huge = await postV3(jar, { id: video, time: 1, text: "长".repeat(5000) });
    expect(huge.status).toBe(413);
    expect(await call("GET", `/api/danmaku/${video}`).then((r) => r.json<WindowBody>())).toEqual(expect.objectContaining({ comments: [] }));
  });

  it("checks the text, the time, the mode and the colour, in Chinese", async () => {
    const video = freshVideo();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ text: "x".repeat(101) }, "弹幕不能超过 100 个字"],
      [{ text: "   " }, "弹幕内容不能为空"],
      [{ text: "a\u0007b" }, "弹幕包含不允许的字符"],
      [{ text: "好", time: -1 }, "弹幕时间无效"],
      [{ text: "好", type: 7 }, "弹幕位置无效"],
      [{ text: "好", color: "#12345g" }, "弹幕颜色无效"],
    ];
    const { jar } = await signUp("dm-check");
    for (const [fields, msg] of cases) {
      const res = await postV3(jar, { id: video, time: 3, ...fields });
      expect(res.status, msg).toBe(400);
      expect((await res.json<V3Answer>()).msg).toBe(msg);
    }
    // 100 characters (emoji count as one each) are accepted.
    const ok = await postV3(jar, { id: video, time: 3, text: "😀".repeat(100) });
    expect(ok.status).toBe(200);
  });

  it("refuses blocked words, from the default list and from DANMAKU_BLOCKED_WORDS", async () => {
    const video = freshVideo();
    const { jar } = await signUp("dm-words");
    const builtIn = await postV3(jar, { id: video, time: 1, text: "你个 傻 逼" });
    expect(builtIn.status).toBe(400);
    expect((await builtIn.json<V3Answer>()).msg).toBe("内容包含屏蔽词");
    const configured = await postV3(jar, { id: video, time: 1, text: "结局剧透：他死了" }, { Origin: BASE }, { DANMAKU_BLOCKED_WORDS: "广告，剧透" });
    expect(configured.status).toBe(400);
    expect((await configured.json<V3Answer>()).msg).toBe("内容包含屏蔽词");
    expect((await postV3(jar, { id: video, time: 1, text: "结局剧透：他死了" })).status).toBe(200);
  });

  it("matches blocked words through invisible characters and traditional forms; text of only invisible characters is empty", async () => {
    const video = freshVideo();
    const { jar } = await signUp("dm-words-hidden");
    for (const text of ["傻\u200b逼", "加\u00ad微\u2060信", "草泥馬", "約炮"]) {
      const res = await postV3(jar, { id: video, time: 1, text });
      expect(res.status, JSON.stringify(text)).toBe(400);
      expect((await res.json<V3Answer>()).msg).toBe("内容包含屏蔽词");
    }
    const empty = await postV3(jar, { id: video, time: 1, text: "\u200b\u2060\u3164\ufe0f" });
    expect(empty.status).toBe(400);
    expect((await empty.json<V3Answer>()).msg).toBe("弹幕内容不能为空");
    // A comment with invisible characters is stored without them.
    const ok = await postV3(jar, { id: video, time: 1, text: "好\u200b看" });
    expect(ok.status).toBe(200);
    expect((await ok.json<V3Answer>()).data?.text).toBe("好看");
  });

  it("rate-limits each user: about one comment per 2 s", async () => {
    const video = freshVideo();
    const { jar } = await signUp("dm-rate");
    expect((await postV3(jar, { id: video, time: 1, text: "第一条" })).status).toBe(200);
    const second = await postV3(jar, { id: video, time: 2, text: "第二条" });
    expect(second.status).toBe(429);
    expect(second.headers.get("Retry-After")).toMatch(/^[12]$/);
    expect((await second.json<V3Answer>()).msg).toBe("发送太频繁，请稍后再试");
    // Another user is not affected.
    expect((await postV3((await signUp("dm-rate2")).jar, { id: video, time: 2, text: "别人的" })).status).toBe(200);
  });

  it("counts a user's comments in all rooms together: a post in a second room, or over its socket, is refused", async () => {
    const [a, b] = [freshVideo(), freshVideo()];
    // Episode rooms of two series (video_007 has 12 episodes, video_036 five).
    const [episodeA, episodeB] = ["video_007~2", "video_036~3"];
    const { jar } = await signUp("dm-rate-rooms");
    // Every room is awake and the poster's socket open before the first post, so the refused
    // posts follow it well within the 2 s (waking a room under a loaded CI took longer than that).
    const watchers = await Promise.all([b, episodeA].map((room) => openSocket(room)));
    await Promise.all(watchers.map((w) => w.next(isType("hello"))));
    const socket = await openSocket(episodeB, { jar });
    expect(await socket.next(isType("hello"))).toMatchObject({ canPost: true });
    expect((await postV3(jar, { id: a, time: 1, text: "第一个房间" })).status).toBe(200);
    const other = await postV3(jar, { id: b, time: 1, text: "换个房间刷屏" });
    expect(other.status).toBe(429);
    expect((await other.json<V3Answer>()).msg).toBe("发送太频繁，请稍后再试");
    // An episode's room is another room, and the socket another way in: the same limit.
    expect((await postV3(jar, { id: episodeA, time: 1, text: "第二集" })).status).toBe(429);
    socket.send({ type: "post", nonce: "r", time: 1, text: "从套接字刷屏" });
    expect(await socket.next(isType("error"))).toMatchObject({ nonce: "r", code: "tooFast", message: "发送太频繁，请稍后再试" });
    for (const w of [socket, ...watchers]) w.ws.close();
    // Nothing of it was stored.
    for (const room of [b, episodeA, episodeB]) expect((await (await call("GET", `/api/danmaku/${room}`)).json<WindowBody>()).comments).toEqual([]);
  });

  it("keeps 30 per 10 minutes per user across rooms, however the posts are spread", async () => {
    const { jar } = await signUp("dm-rate-window");
    const id = await userId(jar);
    const limiter = env.DANMAKU_LIMIT.get(env.DANMAKU_LIMIT.idFromName(id));
    // 29 posts recorded 3 s apart in the last 10 minutes (as if in many rooms): one more is allowed, then none.
    await runInDurableObject(limiter, (_, state) => {
      const now = Date.now();
      for (let i = 0; i < 29; i++) state.storage.sql.exec("INSERT INTO posts (at) VALUES (?)", now - 100_000 - i * 3000);
    });
    expect((await postV3(jar, { id: freshVideo(), time: 1, text: "第三十条" })).status).toBe(200);
    await runInDurableObject(limiter, (_, state) => state.storage.sql.exec("UPDATE posts SET at = at - 5000"));
    const refused = await postV3(jar, { id: freshVideo(), time: 1, text: "第三十一条" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(2);
  });

  it("keeps at most MAX_COMMENTS_PER_ROOM comments, the oldest go first", async () => {
    const video = freshVideo();
    const stub = env.DANMAKU.get(env.DANMAKU.idFromName(video));
    const count = await runInDurableObject(stub, (room) => {
      for (let i = 0; i <= MAX_COMMENTS_PER_ROOM; i++) {
        room.store(`user-${i}`, draft(i % 600, `第${i}条`));
      }
      return room.count();
    });
    expect(count).toBe(MAX_COMMENTS_PER_ROOM);
    const texts = (await runInDurableObject(stub, (room) => room.list({ key: video, sampleSeconds: null }, 0, 0))).map((c) => c.text);
    expect(texts).not.toContain("第0条");
    expect(texts).toContain("第600条");
  });
});

describe("rooms per episode", () => {
  it("{videoId}~{n} is episode n's own room; bad or missing episodes, films' episodes and unknown titles are 404", async () => {
    // A series with 3 episodes that no other test here uses (freshVideo() counts up from video_011).
    const video = "video_042";
    const { jar } = await signUp("dm-episode");
    expect((await postV3(jar, { id: `${video}~2`, time: 3, text: "第二集的弹幕" })).status).toBe(200);
    const second = await (await call("GET", `/api/danmaku/${video}~2`)).json<WindowBody & { episode: number }>();
    expect(second.episode).toBe(2);
    expect(second.comments.map((c) => c.text)).toEqual(["第二集的弹幕"]);
    expect((await (await call("GET", `/api/danmaku/${video}`)).json<WindowBody>()).comments).toEqual([]);
    expect((await (await call("GET", `/api/danmaku/v3/?id=${video}~2`)).json<{ data: unknown[] }>()).data).toHaveLength(1);
    for (const bad of [`${video}~0`, `${video}~4`, `${video}~10000`, `${video}~02`, `${video}~x`, "video_001~2", "video_999~2"]) {
      expect((await call("GET", `/api/danmaku/${bad}`)).status, bad).toBe(404);
      expect((await call("GET", `/api/danmaku/${bad}/ws`, { headers: { Upgrade: "websocket", Origin: BASE } })).status, bad).toBe(404);
    }
    expect((await postV3(jar, { id: `${video}~0`, time: 1, text: "无效" })).status).toBe(404);
  });
});

describe("bad input", () => {
  it("any window query or POST body gets a clear 4xx or a 200, never a 5xx", async () => {
    const { jar } = await signUp("dm-fuzz");
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), async (from, to) => {
        const res = await call("GET", `/api/danmaku/video_001?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
        expect([200, 400]).toContain(res.status);
        if (res.status === 400) expect((await res.json<ErrorBody>()).error.message).toBe("时间范围无效");
      }),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (body) => {
        const res = await postV3(jar, body as Record<string, unknown>);
        expect(res.status).toBeLessThan(500);
        const answer = await res.json<V3Answer>();
        if (res.status !== 200) expect(answer).toEqual({ code: 1, msg: expect.any(String) as string });
      }),
      { numRuns: 60 },
    );
  });
});

describe("the room's WebSocket", () => {
  it("broadcasts a comment posted over the socket to every viewer, signed-out ones too", async () => {
    const video = freshVideo();
    const { jar } = await signUp("dm-ws");
    const id = await userId(jar);
    const poster = await openSocket(video, { jar });
    const viewer = await openSocket(video);
    expect(await poster.next(isType("hello"))).toEqual({ type: "hello", canPost: true, last: 0 });
    expect(await viewer.next(isType("hello"))).toEqual({ type: "hello", canPost: false, last: 0 });

    poster.send({ type: "post", nonce: "n1", time: 5.05, text: "直播弹幕", mode: "bottom", color: "#00cd00" });
    const ack = await poster.next(isType("ack"));
    expect(ack).toMatchObject({ type: "ack", nonce: "n1", comment: { text: "直播弹幕", time: 5.1, mode: "bottom" } });
    expect((ack as Extract<ServerMessage, { type: "ack" }>).comment.author).not.toBe(id);
    const live = await viewer.next(isType("comment"));
    expect(live).toEqual({ type: "comment", comment: (ack as Extract<ServerMessage, { type: "ack" }>).comment });

    // An HTTP post reaches the sockets too.
    expect((await postV3((await signUp("dm-ws2")).jar, { id: video, time: 9, text: "从 HTTP 来的" })).status).toBe(200);
    expect(await viewer.next(isType("comment"))).toMatchObject({ comment: { text: "从 HTTP 来的" } });
    poster.ws.close();
    viewer.ws.close();
  });

  it("refuses posts from a signed-out socket and answers bad messages with an error, never closing", async () => {
    const video = freshVideo();
    const viewer = await openSocket(video);
    viewer.send({ type: "post", nonce: "x", time: 1, text: "匿名" });
    expect(await viewer.next(isType("error"))).toEqual({ type: "error", nonce: "x", code: "notSignedIn", message: "请先登录后再发送弹幕" });
    viewer.ws.send("not json");
    expect(await viewer.next(isType("error"))).toMatchObject({ code: "badRequest", message: "请求格式有误" });
    viewer.ws.send(JSON.stringify({ type: "post", nonce: "y", text: "长".repeat(3000) }));
    expect(await viewer.next(isType("error"))).toMatchObject({ code: "tooLarge" });

    const { jar } = await signUp("dm-ws-err");
    const poster = await openSocket(video, { jar });
    poster.send({ type: "post", nonce: "a", time: 1, text: "第一条" });
    await poster.next(isType("ack"));
    poster.send({ type: "post", nonce: "b", time: 1, text: "第二条" });
    expect(await poster.next(isType("error"))).toEqual({ type: "error", nonce: "b", code: "tooFast", message: "发送太频繁，请稍后再试" });
    poster.send({ type: "post", nonce: "c", time: 1, text: "草泥马" });
    expect(await poster.next(isType("error"))).toMatchObject({ nonce: "c", message: "内容包含屏蔽词" });
    viewer.ws.close();
    poster.ws.close();
  });

  it("refuses an upgrade from a foreign or missing Origin, and an unknown video", async () => {
    const video = freshVideo();
    for (const origin of ["https://evil.example", "null", null]) {
      const headers: Record<string, string> = { Upgrade: "websocket" };
      if (origin !== null) headers.Origin = origin;
      const res = await call("GET", `/api/danmaku/${video}/ws`, { headers });
      expect(res.status, String(origin)).toBe(403);
      expect(res.webSocket).toBeNull();
    }
    expect((await call("GET", "/api/danmaku/video_999/ws", { headers: { Upgrade: "websocket", Origin: BASE } })).status).toBe(404);
    expect((await call("GET", `/api/danmaku/${video}/ws`, { headers: { Origin: BASE } })).status).toBe(426);
  });

  it("resumes after a reconnect with exactly the comments it missed", async () => {
    const video = freshVideo();
    const stub = env.DANMAKU.get(env.DANMAKU.idFromName(video));
    const first = await openSocket(video);
    await first.next(isType("hello"));
    await runInDurableObject(stub, (room) => room.store("u1", draft(1, "一")));
    const seenLast = ((await first.next(isType("comment"))) as Extract<ServerMessage, { type: "comment" }>).comment.id;
    first.ws.close();
    await runInDurableObject(stub, (room) => {
      room.store("u2", draft(2, "二"));
      room.store("u3", draft(3, "三"));
    });
    const again = await openSocket(video, { after: seenLast });
    expect(await again.next(isType("hello"))).toMatchObject({ last: seenLast + 2 });
    const backlog = (await again.next(isType("backlog"))) as Extract<ServerMessage, { type: "backlog" }>;
    expect(backlog.comments.map((c) => c.text)).toEqual(["二", "三"]);
    // Up to date: no backlog at all.
    const current = await openSocket(video, { after: seenLast + 2 });
    await current.next(isType("hello"));
    await runInDurableObject(stub, (room) => room.store("u4", draft(4, "四")));
    await current.next(isType("comment"));
    expect(current.seen.map((m) => m.type)).toEqual(["hello", "comment"]);
    again.ws.close();
    current.ws.close();
  });

  it("works after the room was evicted from memory (hibernation keeps nothing in the instance)", async () => {
    const video = freshVideo();
    const { jar } = await signUp("dm-evict");
    expect((await postV3(jar, { id: video, time: 7, text: "驱逐之前" })).status).toBe(200);
    await abortAllDurableObjects();
    const viewer = await openSocket(video);
    const poster = await openSocket(video, { jar: (await signUp("dm-evict2")).jar });
    expect(await poster.next(isType("hello"))).toMatchObject({ canPost: true, last: expect.any(Number) as number });
    const window = await (await call("GET", `/api/danmaku/${video}?from=0&to=8`)).json<WindowBody>();
    expect(window.comments.map((c) => c.text)).toEqual(["驱逐之前"]);
    poster.send({ type: "post", nonce: "z", time: 8, text: "驱逐之后" });
    expect(await viewer.next(isType("comment"))).toMatchObject({ comment: { text: "驱逐之后" } });
    viewer.ws.close();
    poster.ws.close();
  });
});
