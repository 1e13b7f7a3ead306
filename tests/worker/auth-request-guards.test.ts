// What the worker's account API (/api/auth/*, inside workerd) refuses before any account work:
// cross-site requests (CSRF), too many sign-ins per address, and malformed request bodies.
import { describe, expect, it } from "vitest";
import { uniqueIp } from "./helpers/unique";
import { BASE, PASSWORD, call, signUp } from "./helpers/visitor";
import { type UserBody, type SignedInBody, type ErrorBody, json, expectSessionCookies } from "./helpers/auth-api";

// ---- CSRF ----------------------------------------------------------------------------------

describe("CSRF", () => {
  it("refuses a cross-site Origin and Sec-Fetch-Site: cross-site; allows same-origin", async () => {
    const { email } = await signUp("csrf");
    const evil = await call("POST", "/api/auth/sign-in", { json: { email, password: PASSWORD }, headers: { Origin: "https://evil.example" } });
    expect(evil.status).toBe(403);
    expect((await json<ErrorBody>(evil)).error.code).toBe("csrf");
    expect(evil.headers.getSetCookie()).toEqual([]);

    const crossSite = await call("POST", "/api/auth/sign-in", { json: { email, password: PASSWORD }, headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.getSetCookie()).toEqual([]);

    const nullOrigin = await call("POST", "/api/auth/sign-in", { json: { email, password: PASSWORD }, headers: { Origin: "null" } });
    expect(nullOrigin.status).toBe(403);

    const same = await call("POST", "/api/auth/sign-in", { json: { email, password: PASSWORD }, headers: { Origin: BASE, "Sec-Fetch-Site": "same-origin" } });
    expect(same.status).toBe(200);
    expectSessionCookies(same);
  });

  it("cross-site sign-out and PUT /user are refused too; GET /api/auth/sign-out is 405", async () => {
    const { jar } = await signUp("csrf2");
    const out = await call("POST", "/api/auth/sign-out", { jar, json: {}, headers: { Origin: "https://evil.example" } });
    expect(out.status).toBe(403);
    const put = await call("PUT", "/api/auth/user", {
      jar,
      json: { data: { library: { favourites: ["video_001"], history: [] } } },
      headers: { "Sec-Fetch-Site": "cross-site" },
    });
    expect(put.status).toBe(403);
    expect((await json<SignedInBody>(await call("GET", "/api/auth/user", { jar }))).library.favourites).toEqual([]);

    const get = await call("GET", "/api/auth/sign-out", { jar });
    expect(get.status).toBe(405);
    expect((await json<ErrorBody>(get)).error.code).toBe("method_not_allowed");
    expect(get.headers.getSetCookie()).toEqual([]);
    // still signed in
    expect((await json<UserBody>(await call("GET", "/api/auth/user", { jar }))).user).not.toBeNull();
  });
});

// ---- rate limit ----------------------------------------------------------------------------

describe("rate limit", () => {
  it("sign-ins and sign-ups share 30 per 5 minutes per IP (then 429 with a Chinese message); another IP is not affected", async () => {
    // The window is a fixed 5 minutes: do not start right before it rolls over.
    const intoWindow = Date.now() % 300_000;
    if (intoWindow > 290_000) await new Promise((r) => setTimeout(r, 300_000 - intoWindow + 100));
    const { email } = await signUp("limit");
    const ip = uniqueIp();
    for (let i = 0; i < 15; i++) {
      // Different unknown addresses: the per-account throttle never trips here.
      const res = await call("POST", "/api/auth/sign-in", { ip, json: { email: `nobody-${i}-${email}`, password: "wrong-password" } });
      expect(res.status).toBe(400);
      expect((await json<ErrorBody>(res)).error.message).toBe("邮箱或密码错误");
      const up = await call("POST", "/api/auth/sign-up", { ip, json: { email: "not an address", password: PASSWORD, confirmPassword: PASSWORD } });
      expect(up.status).toBe(400);
    }
    const limited = await call("POST", "/api/auth/sign-in", { ip, json: { email, password: PASSWORD } });
    expect(limited.status).toBe(429);
    const body = await json<ErrorBody>(limited);
    expect(body.error.code).toBe("over_request_rate_limit");
    expect(body.error.message).toBe("操作过于频繁，请稍后再试");
    expect(limited.headers.getSetCookie()).toEqual([]);

    // The form path of the same visitor is limited too, and says so on the page.
    const form = await call("POST", "/api/auth/sign-in", { ip, form: { email, password: PASSWORD }, headers: { Accept: "text/html" } });
    expect(form.status).toBe(303);
    expect(form.headers.get("Location")).toBe("/auth?mode=signin&error=over_request_rate_limit");

    const other = await call("POST", "/api/auth/sign-in", { ip: uniqueIp(), json: { email, password: PASSWORD } });
    expect(other.status).toBe(200);
  });
});

// ---- request bodies ------------------------------------------------------------------------

describe("request bodies", () => {
  async function expectError(res: Response, status: number, code: string) {
    expect(res.status).toBe(status);
    const body = await json<ErrorBody>(res);
    expect(body.error.code).toBe(code);
    expect(typeof body.error.message).toBe("string");
    expect(body.error.message.length).toBeGreaterThan(0);
  }

  it("malformed JSON → 400", async () => {
    for (const raw of ["{", "not json", "", "[1,2]", "null", '"text"']) {
      await expectError(await call("POST", "/api/auth/sign-in", { body: raw, contentType: "application/json" }), 400, "bad_json");
    }
  });

  it("wrong content type → 415", async () => {
    await expectError(
      await call("POST", "/api/auth/sign-in", { body: '{"email":"a@b.c","password":"x"}', contentType: "text/plain" }),
      415,
      "unsupported_media_type",
    );
    await expectError(await call("POST", "/api/auth/sign-up", { body: "x", contentType: "multipart/form-data; boundary=x" }), 415, "unsupported_media_type");
    await expectError(await call("POST", "/api/auth/sign-in", { body: "{}" }), 415, "unsupported_media_type");
  });

  it("a body over 16 KB → 413 (declared or streamed)", async () => {
    const big = JSON.stringify({ email: "a@example.com", password: "x".repeat(17 * 1024) });
    await expectError(await call("POST", "/api/auth/sign-in", { body: big, contentType: "application/json" }), 413, "payload_too_large");
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode("x".repeat(1024)));
        controller.close();
      },
    });
    await expectError(await call("PUT", "/api/auth/user", { body: stream, contentType: "application/json" }), 413, "payload_too_large");
  });

  it("invalid UTF-8 → 400", async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]); // {"e":"\xff\xfe"}
    await expectError(await call("POST", "/api/auth/sign-in", { body: bytes, contentType: "application/json" }), 400, "bad_json");
    await expectError(
      await call("POST", "/api/auth/sign-up", { body: new Uint8Array([0x65, 0x3d, 0xc3]), contentType: "application/x-www-form-urlencoded" }),
      400,
      "bad_json",
    );
  });

  it("an unknown API path is a JSON 404", async () => {
    await expectError(await call("GET", "/api/auth/nothing"), 404, "not_found");
    await expectError(await call("GET", "/api/other"), 404, "not_found");
  });
});
