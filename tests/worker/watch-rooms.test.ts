// 一起看 inside workerd: the WatchRoom Durable Object behind /api/watch — opening a room, the
// short link, joining (signed out too), the room's state and the controls that change it, the
// host and its hand-over, host-only control, the member and control limits, chat under the 弹幕
// rules, closing 30 minutes after the last member left, eviction, and the Origin checks.
import { abortAllDurableObjects, env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CLOSE_AFTER_MS, CONTROL_MAX, MAX_MEMBERS, type ServerMessage } from "../../shared/watch/protocol";
import { connect, isType, join, openRoom, type WatchSocket } from "./helpers/watch-socket";
import { BASE, call, signUp } from "./helpers/visitor";

type Of<T extends ServerMessage["type"]> = Extract<ServerMessage, { type: T }>;
const stubOf = (code: string) => env.WATCH.get(env.WATCH.idFromName(code));
const closeAll = (...sockets: WatchSocket[]) => sockets.forEach((s) => s.ws.close());
/** A series with 12 episodes, and a film. */
const SERIES = "video_007";
const FILM = "video_001";

describe("opening a room", () => {
  it("needs an account, a same-site Origin and a title that exists, and answers in Chinese", async () => {
    const signedOut = await call("POST", "/api/watch", { json: { videoId: FILM }, headers: { Origin: BASE } });
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toEqual({ error: { code: "not_signed_in", message: "请先登录后再创建一起看房间" } });
    const { jar } = await signUp("watch-open");
    expect((await call("POST", "/api/watch", { jar, json: { videoId: FILM }, headers: { Origin: "https://evil.example" } })).status).toBe(403);
    expect((await call("POST", "/api/watch", { jar, json: { videoId: FILM } })).status).toBe(403);
    const unknown = await call("POST", "/api/watch", { jar, json: { videoId: "video_999" }, headers: { Origin: BASE } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json<{ error: { message: string } }>()).error.message).toBe("视频不存在");
    const badEpisode = await call("POST", "/api/watch", { jar, json: { videoId: SERIES, episode: 13 }, headers: { Origin: BASE } });
    expect(badEpisode.status).toBe(400);
    expect((await badEpisode.json<{ error: { message: string } }>()).error.message).toBe("没有这一集");
    const notJson = await call("POST", "/api/watch", { jar, body: "{", contentType: "application/json", headers: { Origin: BASE } });
    expect(notJson.status).toBe(400);
  });

  it("gives a short link that leads to the episode's page with ?room=, and the room's state as JSON", async () => {
    const { jar } = await signUp("watch-link");
    const res = await call("POST", "/api/watch", { jar, json: { videoId: SERIES, episode: 3, position: 61.5 }, headers: { Origin: BASE } });
    expect(res.status).toBe(201);
    const { code, path } = await res.json<{ code: string; path: string }>();
    expect(code).toMatch(/^[2-9a-z]{8}$/);
    expect(path).toBe(`/w/${code}`);
    const link = await call("GET", path);
    expect(link.status).toBe(302);
    expect(link.headers.get("Location")).toBe(`/video/${SERIES}/3?room=${code}`);
    const summary = await (await call("GET", `/api/watch/${code}`)).json<{ state: Record<string, unknown> }>();
    expect(summary.state).toMatchObject({ videoId: SERIES, episode: 3, episodeCount: 12, position: 61.5, playing: true, rate: 1 });
    expect(typeof summary.state.title).toBe("string");

    const film = await openRoom(jar, FILM);
    expect((await call("GET", `/w/${film}`)).headers.get("Location")).toBe(`/video/${FILM}?room=${film}`);
    for (const bad of ["/w/zzzzzzzz", "/w/not-a-code"]) {
      const missing = await call("GET", bad);
      expect(missing.status, bad).toBe(404);
      expect(await missing.text()).toContain("房间不存在或已关闭");
    }
    expect((await call("GET", "/api/watch/zzzzzzzz")).status).toBe(404);
  });
});

describe("joining and the room's state", () => {
  it("a signed-out visitor joins with a nickname and gets the room's state on the server clock; bad nicknames are refused", async () => {
    const { jar } = await signUp("watch-join");
    const code = await openRoom(jar, SERIES, 2, 30);
    const { socket: host, welcome } = await join(code, "房主", { jar });
    expect(welcome).toMatchObject({ host: welcome.you, canChat: true, settings: { hostOnly: false }, chat: [] });
    expect(welcome.state).toMatchObject({ videoId: SERIES, episode: 2, position: 30, playing: true, rate: 1 });
    expect(welcome.state.updatedAt).toBeLessThanOrEqual(welcome.now);

    const guest = await connect(code);
    guest.send({ type: "pause" });
    expect(await guest.next(isType("error"))).toMatchObject({ code: "notJoined", message: "请先加入房间" });
    for (const [nickname, message] of [
      ["   ", "请输入昵称"],
      ["长".repeat(17), "昵称不能超过 16 个字"],
      ["a\u0007b", "昵称包含不允许的字符"],
      ["傻逼", "昵称包含屏蔽词"],
      [42, "请输入昵称"],
    ] as const) {
      guest.send({ type: "join", nickname });
      expect(await guest.next(isType("error")), String(nickname)).toMatchObject({ message });
    }
    guest.send({ type: "join", nickname: " 路人\u200b甲 " });
    const welcomed = await guest.next<Of<"welcome">>(isType("welcome"));
    expect(welcomed.canChat).toBe(false);
    expect(welcomed.host).toBe(welcome.you);
    expect(welcomed.members.map((m) => [m.nickname, m.signedIn])).toEqual([
      ["房主", true],
      ["路人甲", false],
    ]);
    // The others hear of the new member.
    expect((await host.next<Of<"members">>(isType("members"))).members.map((m) => m.nickname)).toEqual(["房主", "路人甲"]);
    // Clock: a ping is answered with the server's time.
    guest.send({ type: "ping", t: 123 });
    expect(await guest.next(isType("pong"))).toMatchObject({ t: 123, now: expect.any(Number) as number });
    closeAll(host, guest);
  });

  it("refuses an upgrade from a foreign or missing Origin, without Upgrade, and for a malformed code", async () => {
    const { jar } = await signUp("watch-origin");
    const code = await openRoom(jar, FILM);
    for (const origin of ["https://evil.example", "null", null]) {
      const headers: Record<string, string> = { Upgrade: "websocket" };
      if (origin !== null) headers.Origin = origin;
      const res = await call("GET", `/api/watch/${code}/ws`, { headers, jar });
      expect(res.status, String(origin)).toBe(403);
      expect(res.webSocket).toBeNull();
    }
    expect((await call("GET", `/api/watch/${code}/ws`, { headers: { Origin: BASE } })).status).toBe(426);
    expect((await call("GET", "/api/watch/BAD/ws", { headers: { Upgrade: "websocket", Origin: BASE } })).status).toBe(404);
  });

  it("answers bad messages with a Chinese error and keeps the socket open", async () => {
    const { jar } = await signUp("watch-bad");
    const { socket } = await join(await openRoom(jar, FILM), "甲", { jar });
    socket.ws.send("not json");
    expect(await socket.next(isType("error"))).toMatchObject({ code: "badRequest", message: "请求格式有误" });
    socket.send({ type: "chat", text: "长".repeat(3000) });
    expect(await socket.next(isType("error"))).toMatchObject({ code: "tooLarge", message: "请求过大" });
    for (const bad of [
      { type: "seek", position: -1 },
      { type: "seek" },
      { type: "rate", rate: 3 },
      { type: "episode", episode: 1.5 },
      { type: "play", position: "x" },
    ]) {
      socket.send(bad);
      expect(await socket.next(isType("error")), JSON.stringify(bad)).toMatchObject({ code: "badControl", message: "播放指令无效" });
    }
    socket.send({ type: "episode", episode: 2 });
    expect(await socket.next(isType("error"))).toMatchObject({ code: "badEpisode", message: "没有这一集" });
    socket.send({ type: "dance" });
    expect(await socket.next(isType("error"))).toMatchObject({ code: "badRequest" });
    closeAll(socket);
  });
});

describe("controls", () => {
  it("play, pause, seek, rate and episode from any member reach every member", async () => {
    const { jar } = await signUp("watch-control");
    const code = await openRoom(jar, SERIES, 1, 0);
    const { socket: a } = await join(code, "甲", { jar });
    const { socket: b, welcome: bWelcome } = await join(code, "乙");
    await a.next(isType("members"));

    // Every member, the sender too, hears each change.
    const heard = async () => {
      const [toA, toB] = await Promise.all([a.next<Of<"state">>(isType("state")), b.next<Of<"state">>(isType("state"))]);
      expect(toB).toEqual(toA);
      return toA;
    };
    b.send({ type: "pause", position: 42 });
    const paused = await heard();
    expect(paused.state).toMatchObject({ playing: false, position: 42, episode: 1 });
    expect(paused.by).toBe(bWelcome.you);
    expect(paused.state.updatedAt).toBeLessThanOrEqual(paused.now);

    a.send({ type: "seek", position: 100 });
    expect((await heard()).state).toMatchObject({ playing: false, position: 100 });
    a.send({ type: "rate", rate: 1.5 });
    expect((await heard()).state).toMatchObject({ rate: 1.5, position: 100 });
    b.send({ type: "play" });
    expect((await heard()).state).toMatchObject({ playing: true, position: 100, rate: 1.5 });
    b.send({ type: "episode", episode: 5 });
    expect((await heard()).state).toMatchObject({ episode: 5, position: 0, playing: true });

    // A late joiner gets where the room is now.
    const { socket: c, welcome } = await join(code, "丙");
    expect(welcome.state).toMatchObject({ episode: 5, playing: true, rate: 1.5 });
    closeAll(a, b, c);
  });

  it("host-only control is the host's setting; the host leaving passes the host to the member who joined next", async () => {
    const { jar } = await signUp("watch-host");
    const code = await openRoom(jar, FILM);
    const { socket: host, welcome: hw } = await join(code, "房主", { jar });
    const { socket: b, welcome: bw } = await join(code, "乙");
    const { socket: c } = await join(code, "丙");
    expect(bw.host).toBe(hw.you);

    b.send({ type: "settings", hostOnly: true });
    expect(await b.next(isType("error"))).toMatchObject({ code: "notHost", message: "只有房主可以修改房间设置" });
    host.send({ type: "settings", hostOnly: true });
    expect(await c.next(isType("settings"))).toEqual({ type: "settings", settings: { hostOnly: true } });
    await b.next(isType("settings"));
    b.send({ type: "pause", position: 5 });
    expect(await b.next(isType("error"))).toMatchObject({ code: "hostOnly", message: "只有房主可以控制播放" });
    // The refused member is told the room's state, to snap back to it.
    expect((await b.next<Of<"state">>(isType("state"))).state.playing).toBe(true);
    host.send({ type: "pause", position: 5 });
    expect((await c.next<Of<"state">>(isType("state"))).state).toMatchObject({ playing: false, position: 5 });

    host.ws.close();
    const handed = await c.next<Of<"members">>((m) => m.type === "members" && m.members.length === 2);
    expect(handed.host).toBe(bw.you);
    expect(await runInDurableObject(stubOf(code), (room) => room.hostId())).toBe(bw.you);
    await b.next<Of<"members">>((m) => m.type === "members" && m.members.length === 2);
    b.send({ type: "play" });
    expect((await c.next<Of<"state">>(isType("state"))).state.playing).toBe(true);
    closeAll(b, c);
  });

  it("refuses a member's controls beyond CONTROL_MAX in a short window", async () => {
    const { jar } = await signUp("watch-flood");
    const code = await openRoom(jar, FILM);
    const { socket } = await join(code, "甲", { jar });
    for (let i = 0; i < CONTROL_MAX; i++) socket.send({ type: "seek", position: i });
    for (let i = 0; i < CONTROL_MAX; i++) await socket.next(isType("state"));
    socket.send({ type: "seek", position: 99 });
    expect(await socket.next(isType("error"))).toMatchObject({ code: "tooManyControls", message: "操作太频繁，请稍后再试" });
    closeAll(socket);
  });

  it(`holds ${MAX_MEMBERS} members; one more is told the room is full and closed`, async () => {
    const { jar } = await signUp("watch-full");
    const code = await openRoom(jar, FILM);
    const members: WatchSocket[] = [];
    for (let i = 0; i < MAX_MEMBERS; i++) members.push((await join(code, `成员${i}`)).socket);
    const extra = await connect(code);
    extra.send({ type: "join", nickname: "迟到的" });
    expect(await extra.next(isType("error"))).toMatchObject({ code: "full", message: "房间已满（最多 50 人）" });
    expect(await extra.closed).toBe(4403);
    // Someone leaves: there is room again.
    members.shift()!.ws.close();
    await members[0].next<Of<"members">>((m) => m.type === "members" && m.members.length === MAX_MEMBERS - 1);
    const { welcome } = await join(code, "补位的");
    expect(welcome.members).toHaveLength(MAX_MEMBERS);
    closeAll(...members);
  });
});

describe("chat", () => {
  it("reaches every member under the 弹幕 rules; signed-out members cannot chat", async () => {
    const { jar } = await signUp("watch-chat");
    const code = await openRoom(jar, FILM);
    const { socket: a } = await join(code, "甲", { jar });
    const { socket: b } = await join(code, "乙");
    b.send({ type: "chat", text: "我也想说话", nonce: "n0" });
    expect(await b.next(isType("error"))).toEqual({ type: "error", code: "chatNotSignedIn", message: "请先登录后再发言", nonce: "n0" });

    a.send({ type: "chat", text: "  开始了！ ", nonce: "n1" });
    expect(await a.next(isType("chat"))).toMatchObject({ nonce: "n1", line: { nickname: "甲", text: "开始了！" } });
    expect(await b.next(isType("chat"))).toMatchObject({ line: { nickname: "甲", text: "开始了！" } });
    // The 弹幕 limit: about one line per 2 s per user, every room and 弹幕 together.
    a.send({ type: "chat", text: "第二句", nonce: "n2" });
    expect(await a.next(isType("error"))).toMatchObject({ nonce: "n2", code: "tooFast", message: "发送太频繁，请稍后再试" });
    for (const [text, message] of [
      ["草泥馬", "内容包含屏蔽词"],
      ["x".repeat(101), "弹幕不能超过 100 个字"],
      ["   ", "弹幕内容不能为空"],
    ]) {
      a.send({ type: "chat", text });
      expect(await a.next(isType("error")), text).toMatchObject({ message });
    }
    // A later member reads the room's recent lines.
    const { welcome } = await join(code, "丙");
    expect(welcome.chat.map((l) => l.text)).toEqual(["开始了！"]);
    closeAll(a, b);
  });
});

describe("closing and eviction", () => {
  it("closes 30 minutes after the last member left, not while anyone is there", async () => {
    const { jar } = await signUp("watch-close");
    const code = await openRoom(jar, FILM);
    const stub = stubOf(code);
    // A room nobody joins closes on the same clock.
    const opened = await runInDurableObject(stub, (_, state) => state.storage.getAlarm());
    expect(opened).toBeGreaterThan(Date.now() + CLOSE_AFTER_MS - 60_000);
    const { socket: a } = await join(code, "甲", { jar });
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).toBeNull();
    const { socket: b } = await join(code, "乙");
    a.ws.close();
    await a.closed;
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).toBeNull();
    b.ws.close();
    await b.closed;
    const alarm = await runInDurableObject(stub, (_, state) => state.storage.getAlarm());
    expect(alarm).toBeGreaterThan(Date.now() + CLOSE_AFTER_MS - 60_000);
    // Someone comes back before it rang: the clock stops.
    const { socket: c } = await join(code, "丙");
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).toBeNull();
    c.ws.close();
    await c.closed;
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await call("GET", `/api/watch/${code}`)).status).toBe(404);
    expect((await call("GET", `/w/${code}`)).status).toBe(404);
    const late = await connect(code);
    expect(await late.next(isType("error"))).toMatchObject({ code: "closed", message: "房间不存在或已关闭" });
    expect(await late.closed).toBe(4404);
  });

  it("keeps the room, its host and its state when the object is evicted from memory", async () => {
    const { jar } = await signUp("watch-evict");
    const code = await openRoom(jar, SERIES, 4, 12);
    const { socket: a } = await join(code, "甲", { jar });
    a.send({ type: "pause", position: 80 });
    await a.next(isType("state"));
    await abortAllDurableObjects();
    const { socket: b, welcome } = await join(code, "乙");
    expect(welcome.state).toMatchObject({ episode: 4, position: 80, playing: false });
    // The evicted room's sockets are gone: the new member is host.
    expect(welcome.host).toBe(welcome.you);
    b.send({ type: "play" });
    expect((await b.next<Of<"state">>(isType("state"))).state.playing).toBe(true);
    closeAll(b);
  });
});
