// The account settings read from the environment, through the whole worker inside workerd:
// EXPOSE_ACCOUNT_API parsing (a bad value is a clear 503) and the development mailbox on localhost only.
import { describe, expect, it, vi } from "vitest";
import { call, LOCAL } from "./helpers/visitor";

describe("configuration", () => {
  it('EXPOSE_ACCOUNT_API "false" and "0" keep /auth/v1 closed; "true" opens it', async () => {
    for (const value of ["false", "0", "off"]) {
      const res = await call("GET", "/auth/v1/user", { env: { EXPOSE_ACCOUNT_API: value } });
      expect(res.headers.get("Content-Type") ?? "", value).toContain("text/html");
      expect(res.status).toBe(404);
    }
    const open = await call("GET", "/auth/v1/user", { env: { EXPOSE_ACCOUNT_API: "true" } });
    expect(open.status).toBe(401);
    expect((await open.json<{ code: string }>()).code).toBe("no_authorization");
  });

  it("a bad value stops the site with a clear 503 and a log line naming the variable", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    for (const [name, value] of [
      ["EXPOSE_ACCOUNT_API", "maybe"],
      ["AUTH_JWT_SECRET", "short"],
      ["ACCOUNT_SERVICE_TIMEOUT_MS", "8s"],
      // Refused here, never ignored for the request's origin by the site settings (shared/site-config.ts).
      ["SITE_URL", "tv.example.com"],
    ] as const) {
      const res = await call("GET", "/", { env: { [name]: value } });
      expect(res.status).toBe(503);
      expect(await res.text()).toContain("站点配置有误");
      expect(errors.mock.calls.some((args) => String(args[0]).includes(`${name}:`))).toBe(true);
    }
    errors.mockRestore();
  });
});

describe("development mailbox", () => {
  it("serves /dev/mail and /dev/mail.json on localhost only", async () => {
    expect((await call("GET", "/dev/mail", { base: LOCAL })).status).toBe(200);
    expect((await call("GET", "/dev/mail", { base: "http://127.0.0.1:8787" })).status).toBe(200);
    for (const path of ["/dev/mail", "/dev/mail.json"]) {
      const res = await call("GET", path);
      expect(res.status).toBe(404);
      expect(res.headers.get("Content-Type")).toContain("text/html");
    }
  });
});
