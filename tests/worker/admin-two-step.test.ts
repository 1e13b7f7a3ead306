// The second step of the 管理后台 (worker/admin/two-step.ts): enrolment shows the secret once and
// ten recovery codes once, a session passes with a TOTP code (each step once) or an unused recovery
// code, 5 wrong codes per 10 minutes lock the account with a Chinese message, and the code is asked
// again 12 hours later. Codes are computed with the TOTP library; time is moved in D1, never slept.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SECOND_STEP_MESSAGES, SECOND_STEP_TTL_MS } from "../../shared/admin/second-step";
import { totpCode } from "../../worker/admin/totp";
import { call, callRead, signUp } from "./helpers/visitor";
import { backdateVerification, enrolledHolder, forgetLastStep, grant, newSession, plainSecret, post, SAME_SITE } from "./helpers/admin";

/** A 6-digit code that no step around now accepts. */
function wrongCode(secret: string): string {
  const valid = new Set([-1, 0, 1].map((step) => totpCode(secret, Date.now() + step * 30_000)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, "0");
    if (!valid.has(code)) return code;
  }
}

/** The session's step as the API tells it. */
async function stepOf(jar: Map<string, string>): Promise<string> {
  const res = await call("GET", "/api/admin/two-step", { jar });
  expect(res.status).toBe(200);
  return (await res.json<{ step: string }>()).step;
}

describe("enrolment", () => {
  it("the first visit shows a QR code and the secret as text; one code confirms it and ten recovery codes are shown once", async () => {
    const { email, jar } = await signUp("enrol");
    await grant(email, "admin");
    expect(await stepOf(jar)).toBe("enrol");

    const { res, text } = await callRead("GET", "/admin", { jar });
    expect(res.status).toBe(200);
    expect(text).toContain("启用两步验证");
    expect(text).toMatch(/<svg[^>]*>/);
    const shown = /data-testid="totp-secret">([A-Z2-7 ]+)</.exec(text)?.[1];
    expect(shown).toBeTruthy();
    const secret = plainSecret(shown!);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // The same pending secret until it is confirmed (a reload does not invalidate the scanned code).
    const again = await post("/api/admin/two-step/enrol", jar);
    expect(plainSecret((await again.json<{ secret: string }>()).secret)).toBe(secret);

    const wrong = await callRead("POST", "/admin/two-step/confirm", { jar, form: { code: totpCode(secret, Date.now() - 300_000) }, headers: SAME_SITE });
    expect(wrong.res.status).toBe(400);
    expect(wrong.text).toContain(SECOND_STEP_MESSAGES.wrongCode);

    const ok = await callRead("POST", "/admin/two-step/confirm", { jar, form: { code: totpCode(secret, Date.now()) }, headers: SAME_SITE });
    expect(ok.res.status).toBe(200);
    const codes = [...ok.text.matchAll(/<li>([2-9A-Z]{5}-[2-9A-Z]{5})<\/li>/g)].map((m) => m[1]);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(await stepOf(jar)).toBe("passed");

    // Never again: neither the secret nor the codes, and only hashes are stored.
    const after = await post("/api/admin/two-step/enrol", jar);
    expect(after.status).toBe(409);
    const home = await callRead("GET", "/admin", { jar });
    expect(home.text).not.toContain(shown!);
    const stored = await env.DB.prepare("SELECT code_hash FROM admin_recovery_codes r JOIN users u ON u.id = r.user_id WHERE u.email = ?")
      .bind(email)
      .all<{ code_hash: string }>();
    expect(stored.results).toHaveLength(10);
    for (const code of codes) expect(JSON.stringify(stored.results)).not.toContain(code.replace("-", ""));
  });
});

describe("verification of each session", () => {
  it("a new session asks for a code; a valid one lets it in, and a code already used is refused", async () => {
    const holder = await enrolledHolder("admin");
    const second = await newSession(holder.email);
    expect(await stepOf(second)).toBe("verify");
    // The code that confirmed the enrolment (this 30-second step) is spent.
    const replay = await post("/api/admin/two-step/verify", second, { code: totpCode(holder.secret, Date.now()) });
    expect(replay.status).toBe(400);
    const next = totpCode(holder.secret, Date.now() + 30_000);
    const res = await call("POST", "/admin/two-step/verify", { jar: second, form: { code: next, next: "/admin/roles" }, headers: SAME_SITE });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/admin/roles");
    expect(await stepOf(second)).toBe("passed");
    const third = await newSession(holder.email);
    expect((await post("/api/admin/two-step/verify", third, { code: next })).status).toBe(400);
  });

  it("a recovery code works once, with or without its dash, and its use is in the audit log", async () => {
    const holder = await enrolledHolder("admin");
    const [code] = holder.recoveryCodes;
    const second = await newSession(holder.email);
    const used = await post("/api/admin/two-step/verify", second, { code: code.replace("-", " ").toLowerCase() });
    expect(used.status, await used.clone().text()).toBe(200);
    expect((await used.json<{ recoveryLeft: number }>()).recoveryLeft).toBe(9);
    const third = await newSession(holder.email);
    expect((await post("/api/admin/two-step/verify", third, { code })).status).toBe(400);
    const audit = await call("GET", `/api/admin/audit?actor=${encodeURIComponent(holder.email)}&action=two_step.recovery_code`, { jar: holder.jar });
    const { entries } = await audit.json<{ entries: { action: string; after: { left: number } }[] }>();
    expect(entries).toHaveLength(1);
    expect(entries[0].after).toEqual({ left: 9 });
  });

  it("5 wrong codes in 10 minutes lock the account — even the right code — with a Chinese message; after 10 minutes it opens again", async () => {
    const holder = await enrolledHolder("moderator");
    const session = await newSession(holder.email);
    for (let i = 0; i < 5; i++) {
      const res = await post("/api/admin/two-step/verify", session, { code: wrongCode(holder.secret) });
      expect(res.status).toBe(400);
    }
    await forgetLastStep(holder.userId);
    const right = await post("/api/admin/two-step/verify", session, { code: totpCode(holder.secret, Date.now()) });
    expect(right.status).toBe(429);
    expect((await right.json<{ error: { message: string } }>()).error.message).toBe("验证码错误次数过多，请10分钟后再试");
    // Another session of the same account is locked too (the limit is per account).
    const other = await newSession(holder.email);
    const page = await callRead("POST", "/admin/two-step/verify", { jar: other, form: { code: totpCode(holder.secret, Date.now()) }, headers: SAME_SITE });
    expect(page.res.status).toBe(429);
    expect(page.text).toContain("验证码错误次数过多，请10分钟后再试");
    // Ten minutes later (the failures moved back in D1):
    await env.DB.prepare("UPDATE admin_code_failures SET failed_at = failed_at - 600000 WHERE user_id = ?").bind(holder.userId).run();
    expect((await post("/api/admin/two-step/verify", session, { code: totpCode(holder.secret, Date.now()) })).status).toBe(200);
  });

  it("the code is asked again 12 hours after it was given", async () => {
    const holder = await enrolledHolder("admin");
    expect((await call("GET", "/api/admin/me", { jar: holder.jar })).status).toBe(200);
    await backdateVerification(holder.userId, SECOND_STEP_TTL_MS - 60_000);
    expect((await call("GET", "/api/admin/me", { jar: holder.jar })).status).toBe(200);
    await backdateVerification(holder.userId, 60_000);
    const res = await call("GET", "/api/admin/me", { jar: holder.jar });
    expect(res.status).toBe(403);
    expect((await res.json<{ error: { code: string; step: string } }>()).error).toMatchObject({ code: "second_step_required", step: "verify" });
    const { text } = await callRead("GET", "/admin", { jar: holder.jar });
    expect(text).toContain("请输入验证器应用中的 6 位验证码");
  });

  it("a role taken away ends access at once, even in a session past the second step", async () => {
    const holder = await enrolledHolder("moderator");
    expect((await call("GET", "/api/admin/me", { jar: holder.jar })).status).toBe(200);
    await grant(holder.email, null);
    expect((await call("GET", "/api/admin/me", { jar: holder.jar })).status).toBe(403);
  });
});
