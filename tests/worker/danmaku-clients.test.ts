// 弹幕 as other clients use it (issue 34): DPlayer sends every colour it offers as a 0xRRGGBB
// integer, MacCMS as "#RRGGBB"; DPlayer embeds on other origins read cross-origin (CORS on the
// v3 read and the window read, with a preflight), and their writes are refused with a clear 403.
import { describe, expect, it } from "vitest";
import type { DanmakuComment, ServerMessage } from "../../shared/danmaku/model";
import { BASE, isType, openSocket } from "./helpers/danmaku-socket";
import { call, signUp, type Jar } from "./helpers/visitor";

interface V3Answer {
  code: number;
  msg?: string;
  data?: unknown;
}

/** DPlayer 1.27's colour choices, as it sends them (its color2Number of #fff, #e54256, #ffe133, #64DD17, #39ccff, #D500F9). */
const DPLAYER_COLOURS = [16777215, 15024726, 16769331, 6610199, 3788031, 13959417];
const FOREIGN = "https://fan-site.example";

let videoSeq = 0;
/** A video no other test of this file uses. */
const freshVideo = () => `video_0${String(40 + ++videoSeq)}`;

function postV3(jar: Jar, body: Record<string, unknown>, origin = BASE) {
  return call("POST", "/api/danmaku/v3/", { jar, json: body, headers: { Origin: origin } });
}

describe("colours", () => {
  it("accepts every colour DPlayer offers (integers) and MacCMS's #RRGGBB strings, and reads them back unchanged", async () => {
    const video = freshVideo();
    const sent: Array<[number | string, number]> = [...DPLAYER_COLOURS.map((n): [number, number] => [n, n]), ["#1A2B3C", 0x1a2b3c], [0, 0]];
    // One user per comment: the rate limit (2 s between two comments of a user) never meets.
    for (const [i, [color]] of sent.entries()) {
      const { jar } = await signUp(`dm-colour${i}`);
      const res = await postV3(jar, { id: video, time: i, text: `颜色${i}`, color, type: 0 });
      expect(res.status, `${String(color)}: ${await res.clone().text()}`).toBe(200);
    }
    const v3 = await call("GET", `/api/danmaku/v3/?id=${video}`).then((r) => r.json<{ data: Array<[number, number, number, string, string]> }>());
    expect(v3.data.map((item) => [item[4], item[2]])).toEqual(sent.map(([, n], i) => [`颜色${i}`, n]));
  });

  it("still refuses what is no colour, in Chinese", async () => {
    const video = freshVideo();
    const { jar } = await signUp("dm-colour-bad");
    for (const color of ["red", "#12345", "#12345g", 0x1000000, -1, 1.5, "16777215", [255]]) {
      const res = await postV3(jar, { id: video, time: 1, text: "好", color });
      expect(res.status, JSON.stringify(color)).toBe(400);
      expect((await res.json<V3Answer>()).msg).toBe("弹幕颜色无效");
    }
  });

  it("takes any colour over the room's WebSocket too", async () => {
    const video = freshVideo();
    const { jar } = await signUp("dm-colour-ws");
    const poster = await openSocket(video, { jar });
    await poster.next(isType("hello"));
    poster.send({ type: "post", nonce: "c", time: 2, text: "深色", color: "#102030" });
    const ack = (await poster.next(isType("ack"))) as Extract<ServerMessage, { type: "ack" }>;
    expect(ack.comment).toMatchObject<Partial<DanmakuComment>>({ color: "#102030", text: "深色" });
    poster.ws.close();
  });
});

describe("CORS of the public reads", () => {
  it("answers a cross-origin GET of the v3 read and the window read with Access-Control-Allow-Origin: *, never with credentials", async () => {
    const video = freshVideo();
    for (const path of [`/api/danmaku/v3/?id=${video}`, `/api/danmaku/v3?id=${video}`, `/api/danmaku/${video}?from=0&to=60`, `/api/danmaku/${video}~2`]) {
      // Twice: the second answer comes from the edge cache and must carry the header too.
      for (const round of [1, 2]) {
        const res = await call("GET", path, { headers: { Origin: FOREIGN } });
        expect(res.status, `${path} #${round}`).toBe(200);
        expect(res.headers.get("Access-Control-Allow-Origin"), `${path} #${round}`).toBe("*");
        expect(res.headers.get("Access-Control-Allow-Credentials")).toBeNull();
        await res.arrayBuffer();
      }
    }
    // A refusal of a read is readable too (DPlayer shows its msg).
    const unknown = await call("GET", "/api/danmaku/v3/?id=video_999999", { headers: { Origin: FOREIGN } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(await unknown.json<V3Answer>()).toEqual({ code: 1, msg: "视频不存在" });
  });

  it("answers the preflight of a read (204, GET and HEAD) on both read paths", async () => {
    const video = freshVideo();
    for (const path of ["/api/danmaku/v3/", "/api/danmaku/v3", `/api/danmaku/${video}`]) {
      const res = await call("OPTIONS", path, {
        headers: { Origin: FOREIGN, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-requested-with" },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
      expect(res.headers.get("Access-Control-Allow-Methods")).toBe("GET, HEAD, OPTIONS");
      expect(res.headers.get("Access-Control-Allow-Headers")).toBe("x-requested-with");
      expect(Number(res.headers.get("Access-Control-Max-Age"))).toBeGreaterThan(0);
    }
  });

  it("refuses the preflight of a write and a cross-origin write, with DPlayer's refusal body, and stores nothing", async () => {
    const video = freshVideo();
    const preflight = await call("OPTIONS", "/api/danmaku/v3/", {
      headers: { Origin: FOREIGN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get("Access-Control-Allow-Methods")).toBeNull();
    expect(await preflight.json<V3Answer>()).toEqual({ code: 1, msg: "禁止跨站请求" });

    const { jar } = await signUp("dm-foreign");
    const post = await postV3(jar, { id: video, time: 1, text: "别站来的", color: 16777215 }, FOREIGN);
    expect(post.status).toBe(403);
    expect(post.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(await post.json<V3Answer>()).toEqual({ code: 1, msg: "禁止跨站请求" });
    const v3 = await call("GET", `/api/danmaku/v3/?id=${video}&max=10`).then((r) => r.json<{ data: unknown[] }>());
    expect(v3.data).toEqual([]);
    // The same user from this site's origin may write.
    expect((await postV3(jar, { id: video, time: 1, text: "本站来的", color: 16777215 })).status).toBe(200);
  });
});
