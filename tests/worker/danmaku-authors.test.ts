// No account ids in public 弹幕 (issue 35): every public answer names a comment's author by an
// opaque value of its room (worker/danmaku/author.ts) — the same within a room, unrelated across
// rooms — while the room keeps the account id for moderation.
import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DanmakuComment, ServerMessage } from "../../shared/danmaku/model";
import { BASE, isType, openSocket } from "./helpers/danmaku-socket";
import { call, signUp, type Jar } from "./helpers/visitor";

const ROOM_A = "video_044";
const ROOM_B = "video_045";

async function userId(jar: Jar): Promise<string> {
  return (await (await call("GET", "/api/auth/user", { jar })).json<{ user: { id: string } }>()).user.id;
}

async function postV3(jar: Jar, room: string, text: string): Promise<DanmakuComment> {
  const res = await call("POST", "/api/danmaku/v3/", { jar, json: { id: room, time: 3, text }, headers: { Origin: BASE } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: DanmakuComment }>()).data;
}

/** Every public read of a room, as text: the time window and DPlayer's v3 shape. */
async function publicReads(room: string): Promise<{ text: string; comments: DanmakuComment[]; v3: unknown[][] }> {
  const window = await call("GET", `/api/danmaku/${room}?from=0&to=100&fresh=${Date.now()}`);
  const v3 = await call("GET", `/api/danmaku/v3/?id=${room}&fresh=${Date.now()}`);
  const windowText = await window.text();
  const v3Text = await v3.text();
  return {
    text: windowText + v3Text,
    comments: (JSON.parse(windowText) as { comments: DanmakuComment[] }).comments,
    v3: (JSON.parse(v3Text) as { data: unknown[][] }).data,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("弹幕 authors in public", () => {
  it("one value per author and room: stable within a room (and across its restarts), different in another room; no account id anywhere public", async () => {
    // The rate limit allows a post every 2 s: the clock moves on between one author's posts.
    vi.useFakeTimers({ toFake: ["Date"] });
    let now = Date.now();
    const later = () => vi.setSystemTime((now += 3000));
    const poster = await signUp("dm-author");
    const other = await signUp("dm-author-2");
    const id = await userId(poster.jar);
    const otherId = await userId(other.jar);

    const watcher = await openSocket(ROOM_A);
    await watcher.next(isType("hello"));
    const first = await postV3(poster.jar, ROOM_A, "第一条");
    const broadcast = await watcher.next(isType("comment"));
    later();
    // Over the poster's own socket: the ack carries the same value (the browser marks its own comment by the ack).
    const socket = await openSocket(ROOM_A, { jar: poster.jar });
    await socket.next(isType("hello"));
    socket.send({ type: "post", nonce: "mine", time: 4, text: "第二条", mode: "scroll", color: "#ffffff" });
    const ack = (await socket.next(isType("ack"))) as Extract<ServerMessage, { type: "ack" }>;
    const fromOther = await postV3(other.jar, ROOM_A, "别人的");
    later();
    const elsewhere = await postV3(poster.jar, ROOM_B, "另一个房间");

    expect(first.author).toMatch(/^[\w-]{16}$/);
    expect(first.author).not.toBe(id);
    expect((broadcast as Extract<ServerMessage, { type: "comment" }>).comment.author).toBe(first.author);
    expect(ack.comment.author).toBe(first.author);
    expect(fromOther.author).not.toBe(first.author);
    expect(elsewhere.author).not.toBe(first.author);

    // The reads say the same; a resuming socket's backlog too.
    const a = await publicReads(ROOM_A);
    expect(a.comments.map((c) => [c.text, c.author])).toEqual([
      ["第一条", first.author],
      ["别人的", fromOther.author],
      ["第二条", first.author],
    ]);
    expect(a.v3.map((item) => item[3])).toEqual([first.author, fromOther.author, first.author]);
    const b = await publicReads(ROOM_B);
    expect(b.comments.map((c) => c.author)).toEqual([elsewhere.author]);
    const resumed = await openSocket(ROOM_A, { after: 0 });
    const backlog = (await resumed.next(isType("backlog"))) as Extract<ServerMessage, { type: "backlog" }>;
    // (in posting order)
    expect(backlog.comments.map((c) => c.author)).toEqual([first.author, first.author, fromOther.author]);

    for (const text of [a.text, b.text, JSON.stringify([watcher.seen, socket.seen, resumed.seen, first, elsewhere, fromOther])]) {
      expect(text).not.toContain(id);
      expect(text).not.toContain(otherId);
    }

    // The room keeps its key: after a restart the same author has the same value.
    await abortAllDurableObjects();
    later();
    expect((await postV3(poster.jar, ROOM_A, "重启之后")).author).toBe(first.author);

    // Moderation still reaches the account: the room's own rows keep the account id.
    const stored = await runInDurableObject(env.DANMAKU.get(env.DANMAKU.idFromName(ROOM_A)), (_, state) =>
      state.storage.sql.exec<{ author: string }>("SELECT author FROM comments ORDER BY id").toArray(),
    );
    expect(stored.map((row) => row.author)).toEqual([id, id, otherId, id]);
  });
});
