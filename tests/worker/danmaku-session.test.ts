// A 弹幕 socket's right to post ends with its session (docs/decisions/0041-danmaku-session.md):
// after signing out (this device or everywhere) or a new password, the next post over a socket
// opened before is refused in Chinese, neither stored nor broadcast, and the socket stays open
// read only; the access token it kept is forgotten. poster.ts answers without the network for an
// expired token and asks the account service otherwise.
import { env, runInDurableObject } from "cloudflare:test";
import { shardName } from "../../shared/danmaku/shards";
import { describe, expect, it } from "vitest";
import type { DanmakuComment, ServerMessage } from "../../shared/danmaku/model";
import { mayPost } from "../../worker/danmaku/poster";
import { isType, openSocket, type Socket } from "./helpers/danmaku-socket";
import { absorb, call, decodeSession, linkIn, LOCAL, mailTo, PASSWORD, signUp, type Jar } from "./helpers/visitor";

const ENDED = { type: "error", code: "sessionEnded", message: "登录已失效，请重新登录后再发送弹幕" } as const;

let videoSeq = 0;
/** A room no other test uses (tests/worker/danmaku.test.ts counts up from video_011). */
const freshRoom = () => `video_04${++videoSeq}`;
const tag = crypto.randomUUID().slice(0, 6);

async function userId(jar: Jar, base?: string): Promise<string> {
  return (await (await call("GET", "/api/auth/user", { jar, base })).json<{ user: { id: string } }>()).user.id;
}

async function signIn(email: string, base?: string): Promise<Jar> {
  const res = await call("POST", "/api/auth/sign-in", { json: { email, password: PASSWORD }, base });
  expect(res.status).toBe(200);
  return absorb(new Map(), res);
}

async function signOut(jar: Jar, scope: "local" | "global", base?: string): Promise<void> {
  const res = await call("POST", "/api/auth/sign-out", { jar, json: { scope }, base, headers: { Origin: base ?? "https://yingshi.test" } });
  expect(res.status).toBe(200);
  expect((await userOfJar(absorb(new Map(jar), res), base)) ?? null).toBeNull();
}

async function userOfJar(jar: Jar, base?: string): Promise<string | null> {
  return (await (await call("GET", "/api/auth/user", { jar, base })).json<{ user: { id: string } | null }>()).user?.id ?? null;
}

/** A poster's socket and a signed-out viewer's in one room; the poster's first comment is stored and broadcast. */
async function postingSocket(room: string, jar: Jar, base?: string): Promise<{ poster: Socket; viewer: Socket }> {
  const poster = await openSocket(room, { jar, base });
  const viewer = await openSocket(room, { base });
  expect(await poster.next(isType("hello"))).toMatchObject({ canPost: true });
  await viewer.next(isType("hello"));
  poster.send({ type: "post", nonce: "before", time: 1, text: `登出之前${tag}` });
  expect(await poster.next(isType("ack"))).toMatchObject({ comment: { text: `登出之前${tag}` } });
  for (const socket of [poster, viewer]) expect(await socket.next(isType("comment"))).toMatchObject({ comment: { text: `登出之前${tag}` } });
  return { poster, viewer };
}

/** The post after the session ended is refused (twice: the socket stays read only), stored nowhere and broadcast to no one; the socket still hears the room. */
async function expectRefused(room: string, poster: Socket, viewer: Socket, base?: string): Promise<void> {
  poster.send({ type: "post", nonce: "after", time: 2, text: `登出之后${tag}` });
  expect(await poster.next(isType("error"))).toEqual({ ...ENDED, nonce: "after" });
  poster.send({ type: "post", nonce: "again", time: 3, text: `再试一次${tag}` });
  expect(await poster.next(isType("error"))).toEqual({ ...ENDED, nonce: "again" });
  // Still open: a comment of someone else reaches both sockets, and nothing came before it.
  const other = await call("POST", "/api/danmaku/v3/", {
    jar: (await signUp(`dms-other-${tag}`, { base })).jar,
    json: { id: room, time: 4, text: `别人的${tag}` },
    headers: { Origin: base ?? "https://yingshi.test" },
    base,
  });
  expect(other.status).toBe(200);
  for (const socket of [poster, viewer]) expect(await socket.next(isType("comment"))).toMatchObject({ comment: { text: `别人的${tag}` } });
  const texts = (socket: Socket) => socket.seen.flatMap((m: ServerMessage) => (m.type === "comment" || m.type === "ack" ? [m.comment.text] : []));
  expect(texts(viewer)).toEqual([`登出之前${tag}`, `别人的${tag}`]);
  const stored = await (await call("GET", `/api/danmaku/${room}`, { base })).json<{ comments: DanmakuComment[] }>();
  expect(stored.comments.map((c) => c.text)).toEqual([`登出之前${tag}`, `别人的${tag}`]);
  // The room's socket shard (both sockets are on its first) forgot the ended session's access
  // token (the viewer never had one).
  const tokens = await runInDurableObject(
    env.DANMAKU_SHARD.get(env.DANMAKU_SHARD.idFromName(shardName(room, 0))),
    (_room, state) => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM socket_sessions").one().n,
  );
  expect(tokens).toBe(0);
  poster.ws.close();
  viewer.ws.close();
}

describe("a socket's right to post ends with its session", () => {
  it("signing out on this device", async () => {
    const room = freshRoom();
    const { jar } = await signUp("dms-local");
    const { poster, viewer } = await postingSocket(room, jar);
    await signOut(jar, "local");
    await expectRefused(room, poster, viewer);
  });

  it("signing out everywhere from another device", async () => {
    const room = freshRoom();
    const { email, jar } = await signUp("dms-global");
    const other = await signIn(email);
    const { poster, viewer } = await postingSocket(room, jar);
    await signOut(other, "global");
    expect(await userOfJar(jar)).toBeNull();
    await expectRefused(room, poster, viewer);
  });

  it("a new password (忘记密码) ends the sessions of the other devices", async () => {
    const room = freshRoom();
    const { email, jar } = await signUp("dms-password", { base: LOCAL });
    const { poster, viewer } = await postingSocket(room, jar, LOCAL);
    expect((await call("POST", "/api/auth/recover", { base: LOCAL, json: { email } })).status).toBe(200);
    const tokenHash = linkIn((await mailTo(email))[0]).searchParams.get("token_hash")!;
    const reset = await call("POST", "/api/auth/reset", {
      base: LOCAL,
      json: { token_hash: tokenHash, password: "new-pass-7", confirmPassword: "new-pass-7" },
    });
    expect(reset.status).toBe(200);
    expect(await userOfJar(jar, LOCAL)).toBeNull();
    await expectRefused(room, poster, viewer, LOCAL);
  });

  it("a session that goes on keeps posting (each stored comment is checked again)", async () => {
    const room = freshRoom();
    const { email, jar } = await signUp("dms-alive");
    const { poster, viewer } = await postingSocket(room, jar);
    // Another device signing out (its own session only) changes nothing for this socket.
    await signOut(await signIn(email), "local");
    poster.send({ type: "post", nonce: "second", time: 2, text: `第二条${tag}` });
    // The rate limit may refuse it (2 s between comments); the session never does.
    const answer = await poster.next((m) => (m.type === "ack" || m.type === "error") && m.nonce === "second");
    expect(answer.type === "ack" || (answer.type === "error" && answer.code === "tooFast"), JSON.stringify(answer)).toBe(true);
    poster.ws.close();
    viewer.ws.close();
  });
});

describe("poster.ts", () => {
  it("asks the account service with the socket's token: valid, another user's, refused; an expired one is refused without asking", async () => {
    const { jar } = await signUp("dms-token");
    const user = await userId(jar);
    const { access_token: accessToken, expires_at: expiresAt } = decodeSession(jar);
    const token = { proof: "token" as const, accessToken, expiresAt: expiresAt * 1000, site: "https://yingshi.test" };
    expect(await mayPost(env, { user, ...token })).toEqual({ ok: true });
    expect(await mayPost(env, { user: crypto.randomUUID(), ...token })).toEqual({ ok: false, code: "sessionEnded" });
    expect(await mayPost(env, { user, ...token, accessToken: "not-a-token" })).toEqual({ ok: false, code: "sessionEnded" });
    // Issued for another site (issuer): not this service's token.
    expect(await mayPost(env, { user, ...token, site: "https://elsewhere.test" })).toEqual({ ok: false, code: "sessionEnded" });
    expect(await mayPost(env, { user, ...token, expiresAt: Date.now() - 1 })).toEqual({ ok: false, code: "sessionEnded" });
    expect(await mayPost(env, { user, proof: "request" })).toEqual({ ok: true });
  });
});
