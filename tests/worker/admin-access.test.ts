import { env } from "cloudflare:test";
// The 管理后台's gate: every /api/admin/* route answered for each kind of visitor (a table), the
// cache and robots headers and the site's CSP on every admin answer, the origin check on every
// write, the pages' redirects and 403, and no admin page in the edge page cache.
import { beforeAll, describe, expect, it } from "vitest";
import { defaultEdgeCache } from "../../worker/http/edge-cache";
import { adminApi } from "../../worker/admin/api";
import { pageCacheKey } from "../../worker/page-cache";
import { BASE, call, callRead, signUp, uniqueEmail, type Jar } from "./helpers/visitor";
import { enrolledHolder, newSession, SAME_SITE, type RoleHolder } from "./helpers/admin";

type Who = "anonymous" | "viewer" | "moderator" | "admin without the second step" | "admin";
const WHO: readonly Who[] = ["anonymous", "viewer", "moderator", "admin without the second step", "admin"];

interface Route {
  method: "GET" | "POST" | "PUT";
  path: string;
  json?: unknown;
  /** Status and error code for each visitor, in WHO's order ("" = a 2xx without an error). */
  expected: readonly [number, string][];
}

const UNKNOWN = () => uniqueEmail("nobody");
/** An account id no account has. */
const NO_ACCOUNT = "00000000-0000-4000-8000-000000000000";
/** An upload id no upload has. */
const NO_UPLOAD = "0".repeat(32);
const SIGNED_OUT: [number, string] = [401, "not_signed_in"];
const NO_ROLE: [number, string] = [403, "forbidden"];
const STEP: [number, string] = [403, "second_step_required"];
const ADMIN_ONLY: [number, string] = [403, "admin_only"];

/** Every route of worker/admin/api.ts. */
const ROUTES: readonly Route[] = [
  { method: "GET", path: "/api/admin/two-step", expected: [SIGNED_OUT, NO_ROLE, [200, ""], [200, ""], [200, ""]] },
  {
    method: "POST",
    path: "/api/admin/two-step/enrol",
    expected: [SIGNED_OUT, NO_ROLE, [409, "already_enrolled"], [409, "already_enrolled"], [409, "already_enrolled"]],
  },
  {
    method: "POST",
    path: "/api/admin/two-step/confirm",
    json: { code: "000000" },
    expected: [SIGNED_OUT, NO_ROLE, [409, "already_enrolled"], [409, "already_enrolled"], [409, "already_enrolled"]],
  },
  {
    method: "POST",
    path: "/api/admin/two-step/verify",
    json: { code: "x" },
    expected: [SIGNED_OUT, NO_ROLE, [400, "bad_code"], [400, "bad_code"], [400, "bad_code"]],
  },
  { method: "GET", path: "/api/admin/me", expected: [SIGNED_OUT, NO_ROLE, [200, ""], STEP, [200, ""]] },
  { method: "GET", path: "/api/admin/roles", expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [200, ""]] },
  {
    method: "POST",
    path: "/api/admin/roles",
    json: { email: UNKNOWN(), role: "moderator" },
    expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "unknown_email"]],
  },
  { method: "POST", path: "/api/admin/roles/revoke", json: { email: UNKNOWN() }, expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "unknown_email"]] },
  { method: "GET", path: "/api/admin/audit", expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [200, ""]] },
  { method: "GET", path: "/api/admin/overview", expected: [SIGNED_OUT, NO_ROLE, [200, ""], STEP, [200, ""]] },
  { method: "GET", path: "/api/admin/users?q=x", expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [200, ""]] },
  { method: "GET", path: `/api/admin/users/${NO_ACCOUNT}`, expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "unknown_account"]] },
  ...["disable", "enable", "sign-out"].map((action): Route => ({
    method: "POST",
    path: `/api/admin/users/${NO_ACCOUNT}/${action}`,
    expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "unknown_account"]],
  })),
  {
    method: "POST",
    path: `/api/admin/users/${NO_ACCOUNT}/delete`,
    json: { confirm: "x@example.com" },
    expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "unknown_account"]],
  },
  { method: "GET", path: "/api/admin/settings", expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [200, ""]] },
  { method: "POST", path: "/api/admin/settings", json: { version: "x" }, expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [400, "version_required"]] },
  { method: "GET", path: "/api/admin/audit?target=x&from=2026-01-01&to=2026-12-31", expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [200, ""]] },
  // 视频管理 (worker/admin/titles.ts): admins only; the admin's answers are refusals of bad input where the route writes.
  { method: "GET", path: "/api/admin/titles", expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [200, ""]] },
  { method: "GET", path: "/api/admin/titles/video_001", expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [200, ""]] },
  { method: "POST", path: "/api/admin/titles", json: { entry: {} }, expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [400, "invalid_entry"]] },
  {
    method: "POST",
    path: "/api/admin/titles/video_001",
    json: { entry: {}, version: 1 },
    expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [400, "invalid_entry"]],
  },
  {
    method: "POST",
    path: "/api/admin/titles/bulk",
    json: { action: "publish", ids: [] },
    expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [400, "nothing_selected"]],
  },
  {
    method: "POST",
    path: "/api/admin/titles/video_99999/episodes",
    json: { action: "remove", episode: 2, version: 1 },
    expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "not_found"]],
  },
  { method: "POST", path: "/api/admin/titles/video_99999/delete", expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "not_found"]] },
  // A cover is image/webp: a JSON body is refused (tests/worker/admin-titles.test.ts sends one).
  { method: "POST", path: "/api/admin/titles/video_001/cover", expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [415, "unsupported_media_type"]] },
  // 弹幕管理 (worker/admin/danmaku.ts): moderators and admins alike.
  { method: "GET", path: "/api/admin/danmaku?text=x&from=2026-01-01", expected: [SIGNED_OUT, NO_ROLE, [200, ""], STEP, [200, ""]] },
  {
    method: "POST",
    path: "/api/admin/danmaku/delete",
    json: { comments: [] },
    expected: [SIGNED_OUT, NO_ROLE, [400, "nothing_selected"], STEP, [400, "nothing_selected"]],
  },
  { method: "GET", path: "/api/admin/danmaku/words", expected: [SIGNED_OUT, NO_ROLE, [200, ""], STEP, [200, ""]] },
  // 评论管理 (worker/admin/comments.ts): moderators and admins alike.
  { method: "GET", path: "/api/admin/comments?text=x", expected: [SIGNED_OUT, NO_ROLE, [200, ""], STEP, [200, ""]] },
  {
    method: "POST",
    path: "/api/admin/comments/delete",
    json: { comments: [] },
    expected: [SIGNED_OUT, NO_ROLE, [400, "nothing_selected"], STEP, [400, "nothing_selected"]],
  },
  // 片头 / 片尾 (worker/admin/markers.ts): admins only.
  {
    method: "POST",
    path: "/api/admin/titles/video_99999/markers",
    json: { version: 1, fields: {} },
    expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "not_found"]],
  },
  {
    method: "POST",
    path: "/api/admin/danmaku/words",
    json: { version: "x" },
    expected: [SIGNED_OUT, NO_ROLE, [400, "version_required"], STEP, [400, "version_required"]],
  },
  { method: "GET", path: "/api/admin/danmaku/mutes", expected: [SIGNED_OUT, NO_ROLE, [200, ""], STEP, [200, ""]] },
  {
    method: "POST",
    path: "/api/admin/danmaku/mutes",
    json: { user: NO_ACCOUNT, duration: "1" },
    expected: [SIGNED_OUT, NO_ROLE, [404, "unknown_account"], STEP, [404, "unknown_account"]],
  },
  {
    method: "POST",
    path: "/api/admin/danmaku/unmute",
    json: { user: NO_ACCOUNT },
    expected: [SIGNED_OUT, NO_ROLE, [404, "unknown_account"], STEP, [404, "unknown_account"]],
  },
  // 举报 (worker/admin/reports.ts): both roles; the writes refuse what does not exist.
  { method: "GET", path: "/api/admin/reports?kind=danmaku&status=open", expected: [SIGNED_OUT, NO_ROLE, [200, ""], STEP, [200, ""]] },
  {
    method: "POST",
    path: "/api/admin/reports/group",
    json: { action: "resolve", title: "video_001" },
    expected: [SIGNED_OUT, NO_ROLE, [404, "nothing_open"], STEP, [404, "nothing_open"]],
  },
  { method: "POST", path: "/api/admin/reports/99999999/resolve", expected: [SIGNED_OUT, NO_ROLE, [404, "not_found"], STEP, [404, "not_found"]] },
  { method: "POST", path: "/api/admin/reports/99999999/dismiss", expected: [SIGNED_OUT, NO_ROLE, [404, "not_found"], STEP, [404, "not_found"]] },
  // 字幕 (worker/admin/subtitles.ts): admins only; an unknown title is a 404.
  {
    method: "POST",
    path: "/api/admin/titles/video_99999/subtitles",
    json: { language: "en", text: "x" },
    expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "not_found"]],
  },
  {
    method: "POST",
    path: "/api/admin/titles/video_99999/subtitles/remove",
    json: { language: "en" },
    expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "not_found"]],
  },
  // 上传视频 (worker/admin/media-uploads.ts): admins only.
  { method: "GET", path: "/api/admin/uploads?title=video_001", expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [200, ""]] },
  { method: "POST", path: "/api/admin/uploads", json: { titleId: "video_99999" }, expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "not_found"]] },
  { method: "GET", path: `/api/admin/uploads/${NO_UPLOAD}`, expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "no_upload"]] },
  {
    method: "PUT",
    path: `/api/admin/uploads/${NO_UPLOAD}/objects/master.m3u8`,
    json: {},
    expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "no_upload"]],
  },
  // An object over one request's limit, in parts (worker/admin/media-multipart.ts).
  {
    method: "POST",
    path: `/api/admin/uploads/${NO_UPLOAD}/multipart/video.mp4`,
    json: {},
    expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "no_upload"]],
  },
  {
    method: "PUT",
    path: `/api/admin/uploads/${NO_UPLOAD}/multipart/video.mp4/1`,
    json: {},
    expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "no_upload"]],
  },
  {
    method: "POST",
    path: `/api/admin/uploads/${NO_UPLOAD}/multipart/video.mp4/complete`,
    json: {},
    expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "no_upload"]],
  },
  { method: "POST", path: `/api/admin/uploads/${NO_UPLOAD}/publish`, json: {}, expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "no_upload"]] },
  { method: "GET", path: `/api/admin/uploads/${NO_UPLOAD}/fingerprints/1`, expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "no_upload"]] },
  { method: "POST", path: `/api/admin/uploads/${NO_UPLOAD}/abandon`, expected: [SIGNED_OUT, NO_ROLE, ADMIN_ONLY, STEP, [404, "no_upload"]] },
  { method: "GET", path: "/api/admin/no-such-route", expected: [SIGNED_OUT, NO_ROLE, [404, "not_found"], STEP, [404, "not_found"]] },
];

function expectAdminHeaders(res: Response, what: string): void {
  expect(res.headers.get("Cache-Control"), what).toBe("no-store");
  expect(res.headers.get("X-Robots-Tag"), what).toContain("noindex");
  expect(res.headers.get("Content-Security-Policy"), what).toContain("script-src 'self' 'nonce-");
}

let jars: Record<Who, Jar | undefined>;
let admin: RoleHolder;

beforeAll(async () => {
  admin = await enrolledHolder("admin");
  const moderator = await enrolledHolder("moderator");
  const viewer = await signUp("viewer");
  jars = {
    anonymous: undefined,
    viewer: viewer.jar,
    moderator: moderator.jar,
    "admin without the second step": await newSession(admin.email),
    admin: admin.jar,
  };
});

describe("every /api/admin/* route for every kind of visitor", () => {
  for (const route of ROUTES) {
    for (const [i, who] of WHO.entries()) {
      const [status, code] = route.expected[i];
      it(`${route.method} ${route.path} — ${who}: ${status}${code ? ` ${code}` : ""}`, async () => {
        const jar = jars[who];
        const res =
          route.method === "GET"
            ? await call("GET", route.path, { jar })
            : await call(route.method, route.path, { jar, json: route.json ?? {}, headers: SAME_SITE });
        const body = await res.json<{ error?: { code: string; message: string } }>();
        expect(res.status, JSON.stringify(body)).toBe(status);
        expect(body.error?.code ?? "").toBe(code);
        if (body.error) expect(body.error.message).toMatch(/[\u4e00-\u9fff]/);
        expectAdminHeaders(res, `${route.method} ${route.path}`);
      });
    }
  }
});

describe("the origin check on every write", () => {
  const writes = ROUTES.filter((r) => r.method !== "GET");
  for (const route of writes) {
    it(`${route.path}: another site's Origin, a cross-site fetch and no Origin at all are refused before anything runs`, async () => {
      for (const headers of [{ Origin: "https://evil.example" }, { "Sec-Fetch-Site": "cross-site", Origin: BASE }, {} as Record<string, string>]) {
        const res = await call(route.method, route.path, { jar: admin.jar, json: route.json ?? {}, headers });
        expect(res.status, JSON.stringify(headers)).toBe(403);
        expect((await res.json<{ error: { code: string } }>()).error.code).toBe("cross_site");
        expectAdminHeaders(res, route.path);
      }
    });
  }

  it("a cross-site grant changes nothing: the account keeps no role", async () => {
    const target = await signUp("target");
    const res = await call("POST", "/api/admin/roles", {
      jar: admin.jar,
      json: { email: target.email, role: "admin" },
      headers: { Origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect((await call("GET", "/api/admin/two-step", { jar: target.jar })).status).toBe(403);
  });

  it("a page form from another site is refused with a Chinese page", async () => {
    const res = await call("POST", "/admin/roles/grant", {
      jar: admin.jar,
      form: { email: "x@example.com", role: "admin" },
      headers: { Origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("请求来源不明");
    expectAdminHeaders(res, "/admin/roles/grant");
  });
});

describe("the pages", () => {
  it("signed out: /auth and back to the page asked for", async () => {
    const res = await call("GET", "/admin/roles?x=1");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/auth?next=%2Fadmin%2Froles%3Fx%3D1");
    expectAdminHeaders(res, "/admin/roles");
  });

  it("signed in without a role: 403 无权访问, at /admin and below", async () => {
    for (const path of ["/admin", "/admin/", "/admin/roles", "/admin/anything"]) {
      const { res, text } = await callRead("GET", path, { jar: jars.viewer });
      expect(res.status, path).toBe(403);
      expect(text).toContain("无权访问");
      expect(text).not.toContain("角色管理");
      expectAdminHeaders(res, path);
    }
  });

  it("a role without this session's second step: the verify screen, whatever the page", async () => {
    for (const path of ["/admin", "/admin/roles", "/admin/audit"]) {
      const { res, text } = await callRead("GET", path, { jar: jars["admin without the second step"] });
      expect(res.status, path).toBe(200);
      expect(text).toContain("两步验证");
      expect(text).toContain(`name="next" value="${path}"`);
      expect(text).not.toContain("角色管理");
    }
  });

  it("a moderator sees 概览 without admin screens, and 403 on them", async () => {
    const home = await callRead("GET", "/admin", { jar: jars.moderator });
    expect(home.res.status).toBe(200);
    expect(home.text).toContain("<h1>概览</h1>");
    expect(home.text).not.toContain('href="/admin/roles"');
    for (const path of ["/admin/roles", "/admin/audit"]) {
      const { res, text } = await callRead("GET", path, { jar: jars.moderator });
      expect(res.status, path).toBe(403);
      expect(text).toContain("无权访问");
    }
    const grant = await call("POST", "/admin/roles/grant", { jar: jars.moderator, form: { email: admin.email, role: "moderator" }, headers: SAME_SITE });
    expect(grant.status).toBe(403);
  });

  it("an admin gets 概览 with the screens that exist, on the admin bundle only", async () => {
    const { res, text } = await callRead("GET", "/admin", { jar: admin.jar });
    expect(res.status).toBe(200);
    expectAdminHeaders(res, "/admin");
    expect(text).toContain('href="/admin/roles"');
    expect(text).toContain('href="/admin/audit"');
    expect(text).toMatch(/<link rel="stylesheet" href="\/assets\/admin-[^"]+\.css"/);
    expect(text).not.toMatch(/\/assets\/entry-/);
  });

  it("no admin answer enters the edge page cache", async () => {
    const cache = defaultEdgeCache()!;
    for (const [path, jar] of [
      ["/admin", undefined],
      ["/admin", admin.jar],
      ["/admin/roles", admin.jar],
      ["/admin", jars.viewer],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const { res } = await callRead("GET", path, { jar });
        expect(res.headers.get("X-Cache"), path).toBeNull();
      }
      expect(await cache.match(await pageCacheKey(BASE + path, env.DB)), path).toBeUndefined();
    }
  });
});

describe("the table above is complete", () => {
  it("every route worker/admin/api.ts declares has a row for every kind of visitor (a new route cannot be left out unseen)", () => {
    // Hono's own list of the routes; the middlewares (`use`) and the catch-all 404 are not endpoints.
    const declared = adminApi.routes.filter((r) => r.method !== "ALL");
    // A declared path as a pattern (`:name` or `:name{regex}` is one segment, `*` the rest), tried on a row's path under /api/admin.
    const pattern = (path: string) => new RegExp(`^${path.replace(/:[A-Za-z]+(\{[^}]*\})?/g, "[^/]+").replace(/\*/g, ".+")}$`);
    const rowPath = (row: Route) => row.path.split("?")[0].slice("/api/admin".length);
    const missing = declared
      .filter((r) => !ROUTES.some((row) => row.method === r.method && pattern(r.path).test(rowPath(row))))
      .map((r) => `${r.method} ${r.path}`);
    expect(declared.length).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });
});
