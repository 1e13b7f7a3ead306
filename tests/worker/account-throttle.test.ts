// Per-account throttling of wrong passwords, through the whole worker inside workerd: 429 from any
// address after 5, the same answers for unknown addresses, lifted by a password reset; and the
// worker's own count in front of a real Supabase project.
import { describe, expect, it, vi } from "vitest";
import { call, LOCAL, linkIn, mailTo, PASSWORD, signUp, uniqueEmail, uniqueIp } from "./helpers/visitor";

describe("per-account throttling", () => {
  it("after 5 wrong passwords the account answers 429 尝试次数过多，请稍后再试 from any address, whatever the password", async () => {
    const { email } = await signUp("throttle");
    for (let i = 0; i < 5; i++) {
      const res = await call("POST", "/api/auth/sign-in", { json: { email, password: `wrong-${i}` } });
      expect(res.status).toBe(400);
    }
    for (const password of [PASSWORD, "wrong-again"]) {
      const res = await call("POST", "/api/auth/sign-in", { ip: uniqueIp(), json: { email: email.toUpperCase(), password } });
      expect(res.status).toBe(429);
      expect((await res.json<{ error: { message: string } }>()).error.message).toBe("尝试次数过多，请稍后再试");
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    // Another account at the same moment is not affected.
    const other = await signUp("throttle-other");
    expect((await call("POST", "/api/auth/sign-in", { json: { email: other.email, password: PASSWORD } })).status).toBe(200);
  });

  it("an unknown address gets exactly the same answers (nothing reveals whether an account exists)", async () => {
    const { email } = await signUp("known");
    const unknown = uniqueEmail("unknown");
    const answers: Record<string, string[]> = { known: [], unknown: [] };
    for (let i = 0; i < 6; i++) {
      for (const [key, address] of [
        ["known", email],
        ["unknown", unknown],
      ] as const) {
        const res = await call("POST", "/api/auth/sign-in", { json: { email: address, password: "wrong-password" } });
        answers[key].push(`${res.status} ${await res.text()}`);
      }
    }
    expect(answers.known).toEqual(answers.unknown);
    expect(answers.known.at(-1)).toContain("429");
  });

  it("a password reset lifts it", async () => {
    const { email } = await signUp("lift", { base: LOCAL });
    for (let i = 0; i < 5; i++) await call("POST", "/api/auth/sign-in", { base: LOCAL, json: { email, password: "wrong-password" } });
    expect((await call("POST", "/api/auth/sign-in", { base: LOCAL, json: { email, password: PASSWORD } })).status).toBe(429);
    expect((await call("POST", "/api/auth/recover", { base: LOCAL, json: { email } })).status).toBe(200);
    const tokenHash = linkIn((await mailTo(email))[0]).searchParams.get("token_hash")!;
    const reset = await call("POST", "/api/auth/reset", {
      base: LOCAL,
      json: { token_hash: tokenHash, password: "a-new-pass-2", confirmPassword: "a-new-pass-2" },
    });
    expect(reset.status).toBe(200);
    expect((await call("POST", "/api/auth/sign-in", { base: LOCAL, json: { email, password: "a-new-pass-2" } })).status).toBe(200);
  });
});

describe("per-account throttling in front of a real Supabase project", () => {
  it("the worker counts wrong passwords itself and stops asking the service after 5", async () => {
    const REMOTE = "https://accounts.throttle.test";
    const realFetch = globalThis.fetch;
    const calls: string[] = [];
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      if (!req.url.startsWith(REMOTE)) return realFetch(input, init);
      calls.push(new URL(req.url).pathname);
      // What Supabase Auth answers to a wrong password (tests/worker/account-service.token.test.ts).
      return new Response(JSON.stringify({ code: "invalid_credentials", message: "Invalid login credentials" }), {
        status: 400,
        headers: { "Content-Type": "application/json", "X-Supabase-Api-Version": "2024-01-01" },
      });
    });
    try {
      const remote = { SUPABASE_URL: REMOTE, SUPABASE_ANON_KEY: "k" };
      const email = uniqueEmail("remote-throttle");
      for (let i = 0; i < 5; i++) expect((await call("POST", "/api/auth/sign-in", { env: remote, json: { email, password: "wrong" } })).status).toBe(400);
      const locked = await call("POST", "/api/auth/sign-in", { env: remote, ip: uniqueIp(), json: { email, password: PASSWORD } });
      expect(locked.status).toBe(429);
      expect((await locked.json<{ error: { message: string } }>()).error.message).toBe("尝试次数过多，请稍后再试");
      expect(calls).toHaveLength(5);
    } finally {
      spy.mockRestore();
    }
  });
});
