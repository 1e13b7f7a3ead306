// 弹幕 rooms spread over socket shards inside workerd (docs/decisions/0065-danmaku-shards.md): the
// room (DanmakuRoom) picks a shard per socket; every comment and delete reaches the sockets of
// every shard; the history, the resume, the rate limit and the authors stay the room's; a shard
// left without sockets is no longer sent to, and nothing keeps an idle room awake.
import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { DanmakuComment, DanmakuDraft, ServerMessage } from "../../shared/danmaku/model";
import { shardName } from "../../shared/danmaku/shards";
import { BASE, isType, openSocket, type Socket, type SocketOptions } from "./helpers/danmaku-socket";
import { call, signUp, type Jar } from "./helpers/visitor";

/** Two sockets per shard: a handful of sockets spread over several shards. */
const SMALL_SHARDS: Partial<Env> = { DANMAKU_SHARD_SIZE: "2" };

interface WindowBody {
  comments: DanmakuComment[];
}

const roomOf = (key: string) => env.DANMAKU.get(env.DANMAKU.idFromName(key));
const shardOf = (key: string, index: number) => env.DANMAKU_SHARD.get(env.DANMAKU_SHARD.idFromName(shardName(key, index)));
const draft = (time: number, text: string): DanmakuDraft => ({ time, text, mode: "scroll", color: "#ffffff" });

/** A socket of `room` with two sockets per shard, once its hello came. */
async function joined(room: string, o: SocketOptions = {}): Promise<Socket> {
  const socket = await openSocket(room, { ...o, env: SMALL_SHARDS });
  await socket.next(isType("hello"));
  return socket;
}

/** Sockets open on each of the room's first `n` shards. */
async function socketsPerShard(room: string, n: number): Promise<number[]> {
  const counts: number[] = [];
  for (let i = 0; i < n; i++) counts.push(await shardOf(room, i).sockets());
  return counts;
}

/** The live comments a socket received (single and batched frames). */
const liveTexts = (socket: Socket): string[] =>
  socket.seen.flatMap((m: ServerMessage) => (m.type === "comment" ? [m.comment.text] : m.type === "comments" ? m.comments.map((c) => c.text) : []));

/** Waits until a socket received the live comment `text`. */
const receives = (socket: Socket, text: string) =>
  socket.next((m) => (m.type === "comment" && m.comment.text === text) || (m.type === "comments" && m.comments.some((c) => c.text === text)));

function postV3(jar: Jar, room: string, time: number, text: string) {
  return call("POST", "/api/danmaku/v3/", { jar, json: { id: room, time, text }, headers: { Origin: BASE } });
}

const closeAll = (sockets: Socket[]) => sockets.forEach((s) => s.ws.close());

describe("shard assignment", () => {
  it("fills the least loaded shard up to DANMAKU_SHARD_SIZE, then opens the next; a small room is one shard", async () => {
    const room = "video_007~9";
    const sockets: Socket[] = [];
    for (let i = 0; i < 5; i++) sockets.push(await joined(room));
    expect(await socketsPerShard(room, 4)).toEqual([2, 2, 1, 0]);
    expect((await roomOf(room).traffic()).shards).toEqual({ 0: 2, 1: 2, 2: 1 });
    // At the default size (thousands per shard) another room's sockets share one shard.
    const small = "video_007~10";
    const defaults = [await openSocket(small), await openSocket(small), await openSocket(small)];
    await Promise.all(defaults.map((s) => s.next(isType("hello"))));
    expect(await socketsPerShard(small, 2)).toEqual([3, 0]);
    closeAll([...sockets, ...defaults]);
  });
});

describe("fan-out across shards", () => {
  it("a comment posted over a socket on one shard, or over HTTP, reaches the sockets of every shard once, in id order", async () => {
    const room = "video_007~11";
    const viewers = [await joined(room), await joined(room), await joined(room), await joined(room)];
    const { jar } = await signUp("dmsh-post");
    const poster = await joined(room, { jar });
    expect(await socketsPerShard(room, 3)).toEqual([2, 2, 1]);

    poster.send({ type: "post", nonce: "p1", time: 3, text: "第三分片发的" });
    const ack = (await poster.next(isType("ack"))) as Extract<ServerMessage, { type: "ack" }>;
    for (const viewer of [...viewers, poster]) expect(await receives(viewer, "第三分片发的")).toBeTruthy();
    expect(await postV3((await signUp("dmsh-post2")).jar, room, 4, "从 HTTP 来的").then((r) => r.status)).toBe(200);
    for (const viewer of [...viewers, poster]) await receives(viewer, "从 HTTP 来的");
    for (const viewer of viewers) expect(liveTexts(viewer)).toEqual(["第三分片发的", "从 HTTP 来的"]);
    // The same comment everywhere: the room's id and opaque author.
    const seenOnFirst = viewers[0].seen.find((m) => m.type === "comment" && m.comment.text === "第三分片发的");
    expect(seenOnFirst).toEqual({ type: "comment", comment: ack.comment });
    closeAll([...viewers, poster]);
  });

  it("comments stored within one tick reach each socket as one frame, in order", async () => {
    const room = "video_007~12";
    const viewers = [await joined(room), await joined(room), await joined(room)];
    await runInDurableObject(roomOf(room), (instance) => {
      for (const text of ["一", "二", "三"]) instance.store("u-batch", draft(1, text));
    });
    for (const viewer of viewers) {
      const frame = await viewer.next((m) => m.type === "comments" || m.type === "comment");
      expect(frame.type).toBe("comments");
      expect((frame as Extract<ServerMessage, { type: "comments" }>).comments.map((c) => c.text)).toEqual(["一", "二", "三"]);
    }
    closeAll(viewers);
  });
});

describe("history across shards", () => {
  it("the reads hold every shard's comments in one order; a socket resuming on another shard gets exactly what it missed", async () => {
    const room = "video_036~4";
    const [a, b] = [await signUp("dmsh-hist-a"), await signUp("dmsh-hist-b")];
    const filler = await joined(room);
    const first = await joined(room, { jar: a.jar });
    const second = await joined(room, { jar: b.jar });
    expect(await socketsPerShard(room, 2)).toEqual([2, 1]);
    first.send({ type: "post", nonce: "a", time: 2, text: "零号分片" });
    const one = ((await first.next(isType("ack"))) as Extract<ServerMessage, { type: "ack" }>).comment;
    second.send({ type: "post", nonce: "b", time: 1, text: "一号分片" });
    const two = ((await second.next(isType("ack"))) as Extract<ServerMessage, { type: "ack" }>).comment;
    expect(two.id).toBe(one.id + 1);

    const window = await (await call("GET", `/api/danmaku/${room}`)).json<WindowBody>();
    expect(window.comments.map((c) => c.text)).toEqual(["一号分片", "零号分片"]);
    const v3 = await (await call("GET", `/api/danmaku/v3/?id=${room}`)).json<{ code: number; data: unknown[] }>();
    expect(v3).toEqual({
      code: 0,
      data: [
        [1, 0, 0xffffff, two.author, "一号分片"],
        [2, 0, 0xffffff, one.author, "零号分片"],
      ],
    });

    // Shard 1 has room for one more: a resume lands there and gets the backlog after its last id.
    const resumed = await joined(room, { after: one.id - 1 });
    expect(resumed.seen[0]).toEqual({ type: "hello", canPost: false, last: two.id });
    expect(await resumed.next(isType("backlog"))).toEqual({ type: "backlog", comments: [one, two] });
    expect(await socketsPerShard(room, 2)).toEqual([2, 2]);
    closeAll([filler, first, second, resumed]);
  });
});

describe("rate limits across shards", () => {
  it("one user's sockets on two shards share the limit", async () => {
    const room = "video_036~5";
    const { jar } = await signUp("dmsh-rate");
    const sockets = [await joined(room, { jar }), await joined(room, { jar }), await joined(room, { jar })];
    expect(await socketsPerShard(room, 2)).toEqual([2, 1]);
    sockets[0].send({ type: "post", nonce: "r1", time: 1, text: "先发一条" });
    await sockets[0].next(isType("ack"));
    sockets[2].send({ type: "post", nonce: "r2", time: 1, text: "换个分片刷屏" });
    expect(await sockets[2].next(isType("error"))).toEqual({ type: "error", nonce: "r2", code: "tooFast", message: "发送太频繁，请稍后再试" });
    expect((await postV3(jar, room, 1, "再用 HTTP")).status).toBe(429);
    expect((await (await call("GET", `/api/danmaku/${room}`)).json<WindowBody>()).comments.map((c) => c.text)).toEqual(["先发一条"]);
    closeAll(sockets);
  });
});

describe("moderation across shards", () => {
  it("a delete reaches the sockets of every shard, and sockets that open just after", async () => {
    const room = "video_036~2";
    const viewers = [await joined(room), await joined(room), await joined(room)];
    const { jar } = await signUp("dmsh-del");
    const posted = await (await postV3(jar, room, 5, "要删掉的")).json<{ data: DanmakuComment }>();
    for (const viewer of viewers) await receives(viewer, "要删掉的");
    const removed = await roomOf(room).remove([posted.data.id]);
    expect(removed.map((c) => c.text)).toEqual(["要删掉的"]);
    for (const viewer of viewers) expect(await viewer.next(isType("delete"))).toEqual({ type: "delete", ids: [posted.data.id] });
    const late = await joined(room);
    expect(await late.next(isType("delete"))).toEqual({ type: "delete", ids: [posted.data.id] });
    closeAll([...viewers, late]);
  });
});

describe("an idle room", () => {
  it("forgets a shard whose sockets all left, sets no alarm, and after an eviction still fans out to every shard", async () => {
    const room = "video_007~8";
    const { jar } = await signUp("dmsh-idle");
    const early = [await joined(room), await joined(room), await joined(room)];
    expect((await roomOf(room).traffic()).shards).toEqual({ 0: 2, 1: 1 });
    closeAll(early);
    await expect.poll(async () => (await socketsPerShard(room, 2)).join()).toBe("0,0");
    // The next batch finds no socket: the room stops sending to both shards.
    expect((await postV3(jar, room, 1, "没人在看")).status).toBe(200);
    await expect.poll(async () => (await roomOf(room).traffic()).shards).toEqual({});
    for (const stub of [roomOf(room), shardOf(room, 0), shardOf(room, 1)])
      expect(await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm())).toBeNull();

    // Every instance goes (as when the runtime evicts them; here their sockets close too): the room
    // reads its shards from storage and fans out to the sockets that open afterwards, on two shards.
    const before = [await joined(room), await joined(room), await joined(room)];
    await abortAllDurableObjects();
    const after = [await joined(room), await joined(room), await joined(room)];
    expect((await socketsPerShard(room, 4)).filter((n) => n > 0).length).toBeGreaterThan(1);
    expect((await postV3((await signUp("dmsh-idle2")).jar, room, 2, "驱逐之后")).status).toBe(200);
    for (const socket of after) await receives(socket, "驱逐之后");
    const all = [...before, ...after];
    closeAll(all);
  });
});
