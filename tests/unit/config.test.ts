// The worker's configuration schema (worker/config.ts): every variable parses to its type,
// bad values are refused with the variable's name.
import { describe, expect, it } from "vitest";
import { DEFAULT_SITE_CONFIG } from "../../shared/site-config";
import { parseConfig } from "../../worker/config";

function ok(vars: Record<string, unknown>) {
  const result = parseConfig(vars);
  if (!result.ok) throw new Error(result.message);
  return result.config;
}

function refused(vars: Record<string, unknown>): string {
  const result = parseConfig(vars);
  if (result.ok) throw new Error("accepted");
  return result.message;
}

describe("config booleans", () => {
  it('"0", "false", "off", "no" (any case, spaces) are false; "1", "true", "on", "yes" are true', () => {
    for (const word of ["0", "false", "FALSE", " off ", "no", false]) expect(ok({ EXPOSE_ACCOUNT_API: word }).EXPOSE_ACCOUNT_API).toBe(false);
    for (const word of ["1", "true", "True", "on", "yes", true]) expect(ok({ EXPOSE_ACCOUNT_API: word }).EXPOSE_ACCOUNT_API).toBe(true);
    for (const word of ["0", "false"]) expect(ok({ AUTH_AUTO_CONFIRM: word }).AUTH_AUTO_CONFIRM).toBe(false);
  });

  it("defaults: account API hidden, auto-confirm on, page cache on, 8 s timeout, 30/90 day sessions", () => {
    expect(ok({})).toMatchObject({
      EXPOSE_ACCOUNT_API: false,
      AUTH_AUTO_CONFIRM: true,
      PAGE_CACHE: "on",
      ACCOUNT_SERVICE_TIMEOUT_MS: 8000,
      AUTH_SESSION_INACTIVITY_DAYS: 30,
      AUTH_SESSION_LIFETIME_DAYS: 90,
    });
  });

  it("anything else is refused with the variable's name", () => {
    expect(refused({ EXPOSE_ACCOUNT_API: "maybe" })).toMatch(/EXPOSE_ACCOUNT_API: must be one of/);
    expect(refused({ AUTH_AUTO_CONFIRM: "" })).toMatch(/AUTH_AUTO_CONFIRM/);
  });
});

describe("config numbers, URLs, secrets and pairs", () => {
  it("numbers parse from text and are range-checked", () => {
    expect(ok({ ACCOUNT_SERVICE_TIMEOUT_MS: "2500" }).ACCOUNT_SERVICE_TIMEOUT_MS).toBe(2500);
    expect(ok({ AUTH_SESSION_INACTIVITY_DAYS: 7, AUTH_SESSION_LIFETIME_DAYS: "14" })).toMatchObject({
      AUTH_SESSION_INACTIVITY_DAYS: 7,
      AUTH_SESSION_LIFETIME_DAYS: 14,
    });
    expect(refused({ ACCOUNT_SERVICE_TIMEOUT_MS: "8s" })).toMatch(/ACCOUNT_SERVICE_TIMEOUT_MS: must be a whole number/);
    expect(refused({ ACCOUNT_SERVICE_TIMEOUT_MS: "0" })).toMatch(/ACCOUNT_SERVICE_TIMEOUT_MS: must be at least/);
    expect(refused({ AUTH_SESSION_INACTIVITY_DAYS: "60", AUTH_SESSION_LIFETIME_DAYS: "30" })).toMatch(/AUTH_SESSION_INACTIVITY_DAYS: must not exceed/);
  });

  it("URLs must be absolute http(s); blank means unset", () => {
    expect(ok({ SITE_URL: "https://yingshi.example/" }).SITE_URL).toBe("https://yingshi.example/");
    expect(ok({ SITE_URL: "  " }).SITE_URL).toBeUndefined();
    expect(refused({ SITE_URL: "yingshi.example" })).toMatch(/SITE_URL/);
    expect(refused({ SITE_URL: "ftp://yingshi.example" })).toMatch(/SITE_URL: must start with http/);
  });

  it("AUTH_JWT_SECRET is at least 32 characters; blank means unset (a key kept in D1)", () => {
    expect(refused({ AUTH_JWT_SECRET: "short" })).toMatch(/AUTH_JWT_SECRET: must be at least 32 characters/);
    expect(ok({ AUTH_JWT_SECRET: "" }).AUTH_JWT_SECRET).toBeUndefined();
    expect(ok({ AUTH_JWT_SECRET: "x".repeat(32) }).AUTH_JWT_SECRET).toBe("x".repeat(32));
  });

  it("SUPABASE_URL and SUPABASE_ANON_KEY come together; a mail API needs its key and sender", () => {
    expect(refused({ SUPABASE_URL: "https://p.supabase.co" })).toMatch(/SUPABASE_ANON_KEY: SUPABASE_URL and SUPABASE_ANON_KEY are set together/);
    expect(ok({ SUPABASE_URL: "https://p.supabase.co", SUPABASE_ANON_KEY: "k" }).SUPABASE_URL).toBe("https://p.supabase.co");
    expect(refused({ MAIL_API_URL: "https://mail.example/send" })).toMatch(/MAIL_API_KEY/);
  });

  it("the site's texts are trimmed, and unset or blank take the defaults of shared/site-defaults.json (the account service's name too)", () => {
    expect(ok({})).toMatchObject({
      SITE_NAME: DEFAULT_SITE_CONFIG.siteName,
      BUSINESS_CONTACT: DEFAULT_SITE_CONFIG.businessContact,
      FILING_NUMBER: DEFAULT_SITE_CONFIG.filingNumber,
      CULTURE_LICENCE: DEFAULT_SITE_CONFIG.cultureLicence,
    });
    expect(ok({ SITE_NAME: "  " }).SITE_NAME).toBe(DEFAULT_SITE_CONFIG.siteName);
    expect(ok({ SITE_NAME: " 我的影视 " }).SITE_NAME).toBe("我的影视");
  });

  it("PAGE_CACHE is on or off", () => {
    expect(ok({ PAGE_CACHE: "off" }).PAGE_CACHE).toBe("off");
    expect(refused({ PAGE_CACHE: "false" })).toMatch(/PAGE_CACHE: must be "on" or "off"/);
  });

  it("bindings and unknown keys are left alone", () => {
    expect(ok({ DB: {}, MEDIA: {}, ASSETS: {}, TEST_MIGRATIONS: [] })).toBeTruthy();
  });
});
