// Reads that scale (issue 35; docs/decisions/0067-read-replication.md), inside workerd: every
// catalogue read of the hot pages goes through a D1 session of read replication, never straight to
// the primary; a visitor who wrote carries the session's bookmark and their next request reads from
// it; and what each hot page costs in D1 statements, a miss and a hit of the edge cache, counted
// by wrapping the D1 binding of the request (local D1 does not replicate, the code is the same).
import { afterEach, describe, expect, it } from "vitest";
import { forgetContentTag } from "../../worker/content-version";
import { BOOKMARK_COOKIE, bookmarkFrom, UNCONSTRAINED } from "../../worker/request-bindings";
import { forgetSiteSettings } from "../../worker/site-settings";
import { countingD1, newCount, statementsOf, type D1Count } from "./helpers/counting-d1";
import { BASE, call, callWith, setCookies, signUp } from "./helpers/visitor";

/**
 * The hot pages and the most D1 statements each may cost when the edge cache misses and the
 * isolate's memos (content version, 站点设置) are cold: the figures of docs/decisions/0067-read-replication.md.
 */
const HOT_PAGES: Array<[string, number]> = [
  ["/", 11],
  ["/video/video_003", 9],
  ["/category/all?year=2019", 11],
  ["/latest", 8],
  ["/search?q=%E9%9B%BE", 6],
  ["/api/page/category/all", 8],
  ["/api.php/provide/vod/?ac=list", 4],
  ["/api.php/provide/vod/?ac=detail&ids=video_003", 6],
];
/** /search is never stored at the edge (endless keys): with the memos warm it costs its 4 queries every time. */
const NOT_STORED = new Set(["/search?q=%E9%9B%BE"]);

async function counted(path: string, overrides: Partial<Env> = {}, cookie?: string): Promise<{ count: D1Count; status: number; res: Response }> {
  const count = newCount();
  const { res } = await callWith({ ...overrides, DB: countingD1(count) }, "GET", path, cookie ? { cookie } : {});
  return { count, status: res.status, res };
}

afterEach(() => {
  forgetContentTag();
  forgetSiteSettings();
});

describe("catalogue reads through D1's read replication", () => {
  it.each(HOT_PAGES)("%s reads only through an unconstrained session, at most %i statements on a miss", async (path, most) => {
    forgetContentTag();
    forgetSiteSettings();
    const { count, status } = await counted(path, { PAGE_CACHE: "off" });
    expect(status).toBe(200);
    expect(count.sessions).toEqual([UNCONSTRAINED]);
    expect(count.onPrimary).toBe(0);
    const statements = statementsOf(count);
    console.log(`D1 statements of ${path} (miss, memos cold): ${statements}\n${count.sql.map((s) => "  " + s.slice(0, 110)).join("\n")}`);
    expect(statements).toBeGreaterThan(0);
    expect(statements, count.sql.join("\n")).toBeLessThanOrEqual(most);
  });

  it("a page the edge cache holds costs no D1 statement while the content version is remembered", async () => {
    for (const [path] of HOT_PAGES.filter(([p]) => !NOT_STORED.has(p))) {
      await call("GET", path); // stored (or already there)
      const { count, status, res } = await counted(path);
      expect(status, path).toBe(200);
      expect(res.headers.get("X-Cache") ?? "HIT", path).not.toBe("MISS");
      expect(statementsOf(count), `${path}: ${count.sql.join(" | ")}`).toBe(0);
    }
  });

  it("a visitor who wrote carries the bookmark, and their next request's session starts from it", async () => {
    const { jar } = await signUp("replica-writer");
    const count = newCount();
    const res = await call("PUT", "/api/lists/follows/video_007", { jar, headers: { Origin: BASE }, json: {}, env: { DB: countingD1(count) } });
    expect(res.status).toBe(200);
    const cookie = setCookies(res).find((c) => c.name === BOOKMARK_COOKIE);
    expect(cookie?.value).toBeTruthy();
    expect(bookmarkFrom(cookie?.value)).toBe(cookie?.value);
    expect(cookie?.attributes).toEqual(expect.arrayContaining(["HttpOnly", "Path=/", "Max-Age=300"]));

    const next = await counted("/category/all?year=2020", { PAGE_CACHE: "off" }, `${BOOKMARK_COOKIE}=${cookie?.value ?? ""}`);
    expect(next.status).toBe(200);
    expect(next.count.sessions).toEqual([cookie?.value]);
    // Reads hand out no bookmark: only a successful write does.
    expect(setCookies(next.res).map((c) => c.name)).not.toContain(BOOKMARK_COOKIE);
  });

  it("a refused write hands out no bookmark; a malformed bookmark is ignored", async () => {
    const refused = await call("PUT", "/api/lists/follows/video_007", { headers: { Origin: BASE }, json: {} });
    expect(refused.status).toBe(401);
    expect(setCookies(refused).map((c) => c.name)).not.toContain(BOOKMARK_COOKIE);

    const odd = await counted("/category/all?year=2021", { PAGE_CACHE: "off" }, `${BOOKMARK_COOKIE}=${encodeURIComponent("x'; DROP")}`);
    expect(odd.status).toBe(200);
    expect(odd.count.sessions).toEqual([UNCONSTRAINED]);
  });

  it("the account service reads from the primary first (a token written by one request is found by the next)", async () => {
    const { jar } = await signUp("replica-account");
    const count = newCount();
    const res = await call("GET", "/api/auth/user", { jar, env: { DB: countingD1(count) } });
    expect(res.status).toBe(200);
    expect(count.sessions).toContain("first-primary");
    expect(count.onPrimary).toBe(0);
  });
});
