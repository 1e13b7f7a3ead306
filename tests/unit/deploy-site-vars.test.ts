import { describe, expect, it } from "vitest";
import { chooseSiteUrl, planSiteVars, readTomlSettings, type TomlSettings } from "../../scripts/deploy/site-vars";

const NO_TOML: TomlSettings = { vars: {}, emailBinding: false };
const MAIL_SECRETS = ["AUTH_JWT_SECRET", "MAIL_API_URL", "MAIL_API_KEY", "MAIL_FROM"];

describe("deploy: SITE_URL and e-mail confirmation", () => {
  it("a site that can send mail gets confirmation on (AUTH_AUTO_CONFIRM=false) and SITE_URL", () => {
    const plan = planSiteVars({ secrets: MAIL_SECRETS, toml: NO_TOML, url: "https://tv.example.com" });
    expect(plan.vars).toEqual({ SITE_URL: "https://tv.example.com", AUTH_AUTO_CONFIRM: "false" });
    expect(plan.mail).toBe("http");
    expect(plan.notes.join("\n")).toContain("sign-up answers alike for registered and new addresses");
  });

  it("the EMAIL send_email binding with MAIL_FROM counts as a way to send mail; a binding without a sender does not", () => {
    const binding = { vars: { MAIL_FROM: "影视站 <no-reply@tv.example.com>" }, emailBinding: true };
    expect(planSiteVars({ secrets: [], toml: binding, url: null }).vars.AUTH_AUTO_CONFIRM).toBe("false");
    expect(planSiteVars({ secrets: [], toml: { vars: {}, emailBinding: true }, url: null }).mail).toBe("none");
    // Half of the mail API's secrets is no mail either.
    expect(planSiteVars({ secrets: ["MAIL_API_URL", "MAIL_API_KEY"], toml: NO_TOML, url: null }).mail).toBe("none");
  });

  it("without a way to send mail it keeps auto-confirm and says plainly what that means", () => {
    const plan = planSiteVars({ secrets: ["AUTH_JWT_SECRET"], toml: NO_TOML, url: null });
    expect(plan.vars).toEqual({ AUTH_AUTO_CONFIRM: "true" });
    const text = plan.notes.join("\n");
    expect(text).toContain("NO WAY TO SEND MAIL");
    expect(text).toContain("tells anyone whether an address is registered");
    expect(text).toContain("no one could confirm an account");
  });

  it("leaves the owner's own wrangler.toml choices alone, warning when confirmation is on without mail", () => {
    const own = readTomlSettings('[vars]\nAUTH_AUTO_CONFIRM = "false"\nSITE_URL = "https://own.example"\n');
    const plan = planSiteVars({ secrets: [], toml: own, url: "https://x.workers.dev" });
    expect(plan.vars).toEqual({});
    expect(plan.notes.join("\n")).toMatch(/WARNING.*no one could confirm an account/);
    expect(planSiteVars({ secrets: MAIL_SECRETS, toml: own, url: null }).notes.join("\n")).not.toContain("WARNING");
  });

  it("a Supabase project decides confirmation itself", () => {
    const plan = planSiteVars({ secrets: ["SUPABASE_URL", "SUPABASE_ANON_KEY"], toml: NO_TOML, url: "https://tv.example.com" });
    expect(plan.vars).toEqual({ SITE_URL: "https://tv.example.com" });
    expect(plan.mail).toBe("supabase");
  });

  it("SITE_URL after the deploy: --url, else the last address while still served, else the workers.dev one", () => {
    const printed = ["https://yingshi.me.workers.dev", "https://tv.example.com"];
    expect(chooseSiteUrl("https://flag.example", "https://tv.example.com", printed)).toBe("https://flag.example");
    expect(chooseSiteUrl(null, "https://tv.example.com", printed)).toBe("https://tv.example.com");
    expect(chooseSiteUrl(null, "https://gone.example", printed)).toBe("https://yingshi.me.workers.dev");
    expect(chooseSiteUrl(null, null, [])).toBeNull();
  });

  it("reads [vars] and [[send_email]] from wrangler.toml text, comments and other tables aside", () => {
    const toml = [
      'name = "yingshi"',
      "# [vars]",
      "[vars]",
      'SITE_NAME = "影视站" # brand',
      "MAIL_FROM = 'a <b@c.d>'",
      "AUTH_AUTO_CONFIRM = true",
      "[[send_email]]",
      'name = "EMAIL"',
      "[[r2_buckets]]",
      'binding = "MEDIA"',
    ].join("\n");
    expect(readTomlSettings(toml)).toEqual({ vars: { SITE_NAME: "影视站", MAIL_FROM: "a <b@c.d>", AUTH_AUTO_CONFIRM: "true" }, emailBinding: true });
    expect(readTomlSettings('[[send_email]]\nname = "OTHER"\n').emailBinding).toBe(false);
  });
});
