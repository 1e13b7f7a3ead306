// 追剧 and 稍后再看 of an account (worker/lists/api.ts, docs/decisions/0091-follow-and-watch-later.md):
// only a signed-in account, only its own rows, only titles the catalogue has, at most LIST_LIMIT
// each; the browser's lists merged at sign-in; writes from another site refused.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LIST_LIMIT, type SeriesLists } from "../../shared/series-lists";
import { BASE, call, signUp, type Jar } from "./helpers/visitor";

const SAME_SITE = { Origin: BASE };

async function lists(jar: Jar): Promise<SeriesLists> {
  const res = await call("GET", "/api/lists", { jar });
  expect(res.status).toBe(200);
  expect(res.headers.get("Cache-Control")).toBe("private, no-store");
  return (await res.json<{ lists: SeriesLists }>()).lists;
}

const ids = (items: ReadonlyArray<{ id: string }>) => items.map((i) => i.id);

describe("/api/lists", () => {
  it("refuses a visitor who is not signed in, and a write from another site", async () => {
    for (const [method, path] of [
      ["GET", "/api/lists"],
      ["PUT", "/api/lists/follows/video_007"],
      ["DELETE", "/api/lists/follows/video_007"],
      ["POST", "/api/lists/merge"],
    ] as const) {
      const res = await call(method, path, { headers: SAME_SITE, json: method === "POST" ? { lists: {} } : undefined });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(await res.json()).toEqual({ error: { code: "not_signed_in", message: "请先登录" } });
    }
    const { jar } = await signUp("lists-csrf");
    for (const headers of [{ Origin: "https://evil.test" }, {}] as Array<Record<string, string>>) {
      const res = await call("PUT", "/api/lists/follows/video_007", { jar, headers, json: {} });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: { code: "cross_site", message: "请求来源无效" } });
    }
    expect((await lists(jar)).follows).toEqual([]);
  });

  it("adds, notes episodes seen, and removes — each account only its own", async () => {
    const a = await signUp("lists-a");
    const b = await signUp("lists-b");
    expect((await call("PUT", "/api/lists/follows/video_007", { jar: a.jar, headers: SAME_SITE, json: { seenEpisodes: 12 } })).status).toBe(200);
    expect((await call("PUT", "/api/lists/watchLater/video_001", { jar: a.jar, headers: SAME_SITE, json: {} })).status).toBe(200);
    const mine = await lists(a.jar);
    expect(mine.follows).toMatchObject([{ id: "video_007", seenEpisodes: 12 }]);
    expect(ids(mine.watchLater)).toEqual(["video_001"]);
    // The other account sees nothing of it, and cannot remove it (its DELETE touches its own rows).
    expect(await lists(b.jar)).toEqual({ follows: [], watchLater: [] });
    expect((await call("DELETE", "/api/lists/follows/video_007", { jar: b.jar, headers: SAME_SITE })).status).toBe(200);
    expect(ids((await lists(a.jar)).follows)).toEqual(["video_007"]);
    // A lower count never lowers what was seen; a higher one raises it.
    await call("PUT", "/api/lists/follows/video_007", { jar: a.jar, headers: SAME_SITE, json: { seenEpisodes: 3 } });
    expect((await lists(a.jar)).follows[0].seenEpisodes).toBe(12);
    await call("PUT", "/api/lists/follows/video_007", { jar: a.jar, headers: SAME_SITE, json: { seenEpisodes: 13 } });
    expect((await lists(a.jar)).follows[0].seenEpisodes).toBe(13);
    expect((await call("DELETE", "/api/lists/watchLater/video_001", { jar: a.jar, headers: SAME_SITE })).status).toBe(200);
    expect((await lists(a.jar)).watchLater).toEqual([]);
  });

  it("answers bad input with a Chinese error, never a 500", async () => {
    const { jar } = await signUp("lists-bad");
    const cases: Array<[string, string, unknown, number, string]> = [
      ["PUT", "/api/lists/follows/video_999999", {}, 404, "视频不存在"],
      ["PUT", "/api/lists/follows/nope", {}, 404, "视频不存在"],
      ["PUT", "/api/lists/favourites/video_001", {}, 404, "接口不存在"],
      ["PUT", "/api/lists/follows/video_007", { seenEpisodes: -1 }, 400, "已看集数无效"],
      ["PUT", "/api/lists/follows/video_007", { seenEpisodes: "12" }, 400, "已看集数无效"],
      ["POST", "/api/lists/merge", { lists: "x" }, 400, "请求内容无效"],
    ];
    for (const [method, path, json, status, message] of cases) {
      const res = await call(method, path, { jar, headers: SAME_SITE, json });
      expect(res.status, `${method} ${path} ${JSON.stringify(json)}`).toBe(status);
      expect((await res.json<{ error: { message: string } }>()).error.message).toBe(message);
    }
    const big = await call("POST", "/api/lists/merge", {
      jar,
      headers: SAME_SITE,
      body: JSON.stringify({ lists: { follows: "x".repeat(70_000) } }),
      contentType: "application/json",
    });
    expect(big.status).toBe(413);
    expect((await big.json<{ error: { message: string } }>()).error.message).toBe("请求内容过大");
  });

  it("refuses a title past the limit with 列表已满", async () => {
    const { jar } = await signUp("lists-full");
    const user = (await (await call("GET", "/api/auth/user", { jar })).json<{ user: { id: string } }>()).user.id;
    // Fill the list in D1 directly: LIST_LIMIT rows of made-up ids (the catalogue check is the API's).
    const rows = Array.from({ length: LIST_LIMIT }, (_, i) => ({ id: `video_9${String(i).padStart(5, "0")}`, at: i }));
    await env.DB.prepare(
      "INSERT INTO account_lists (user_id, list, title_id, added_at) SELECT ?1, 'watchLater', json_extract(value, '$.id'), json_extract(value, '$.at') FROM json_each(?2)",
    )
      .bind(user, JSON.stringify(rows))
      .run();
    const res = await call("PUT", "/api/lists/watchLater/video_001", { jar, headers: SAME_SITE, json: {} });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: "list_full", message: `稍后再看列表已满（最多${LIST_LIMIT}部）` } });
    // Another list still takes it.
    expect((await call("PUT", "/api/lists/follows/video_007", { jar, headers: SAME_SITE, json: {} })).status).toBe(200);
  });

  it("merges the browser's lists into the account's: union, larger seen count, unknown titles left out", async () => {
    const { jar } = await signUp("lists-merge");
    await call("PUT", "/api/lists/follows/video_007", { jar, headers: SAME_SITE, json: { seenEpisodes: 10 } });
    const browser: SeriesLists = {
      follows: [
        { id: "video_007", addedAt: 5, seenEpisodes: 12 },
        { id: "video_021", addedAt: 4, seenEpisodes: 5 },
        { id: "video_999999", addedAt: 3 },
      ],
      watchLater: [{ id: "video_002", addedAt: 2 }],
    };
    const res = await call("POST", "/api/lists/merge", { jar, headers: SAME_SITE, json: { lists: browser } });
    expect(res.status).toBe(200);
    const merged = (await res.json<{ lists: SeriesLists }>()).lists;
    expect(merged.follows.find((i) => i.id === "video_007")?.seenEpisodes).toBe(12);
    expect(ids(merged.follows).sort()).toEqual(["video_007", "video_021"]);
    expect(ids(merged.watchLater)).toEqual(["video_002"]);
    expect(await lists(jar)).toEqual(merged);
    // Merging again changes nothing.
    await call("POST", "/api/lists/merge", { jar, headers: SAME_SITE, json: { lists: browser } });
    expect(await lists(jar)).toEqual(merged);
  });
});
