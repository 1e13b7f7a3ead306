import { describe, expect, it } from "vitest";
import { siteDefaults } from "../../scripts/site-defaults.mjs";
import { DEFAULT_SITE_CONFIG, defaultSiteConfig, siteConfigFrom, type SiteConfig } from "../../shared/site-config";
import { parseConfig } from "../../worker/config";
import { errorPageHtml } from "../../worker/error-page";

/** The site settings as the worker derives them: the variables through worker/config.ts, then the shared builder. */
function siteOf(vars: Record<string, unknown>, requestOrigin: string): SiteConfig {
  const result = parseConfig(vars);
  if (!result.ok) throw new Error(result.message);
  return siteConfigFrom(result.config, requestOrigin);
}

describe("site configuration: one set of defaults (shared/site-defaults.json)", () => {
  it("the worker, the client and the scripts read the same defaults", () => {
    expect(siteDefaults()).toEqual(DEFAULT_SITE_CONFIG);
    expect(defaultSiteConfig("https://tv.example")).toEqual({ ...DEFAULT_SITE_CONFIG, origin: "https://tv.example" });
    expect(siteOf({}, "http://localhost:8787")).toEqual(defaultSiteConfig("http://localhost:8787"));
  });

  it("the defaults are the spec's texts", () => {
    expect(DEFAULT_SITE_CONFIG).toEqual({
      siteName: "影视站",
      businessContact: "商务合作请联系：微信 yingshi_bd",
      filingNumber: "京ICP备2025000000号-1",
      cultureLicence: "网络文化经营许可证：京网文〔2025〕0000-000号",
      heroTitle: "精彩影视，免费畅享",
      heroText: "海量电影、电视剧、综艺与纪录片，高清画质，随点随看。",
    });
  });

  it("the 500 page carries the configured name, escaped", async () => {
    expect(String(await errorPageHtml("影视站"))).toContain("<title>服务器错误 - 影视站</title>");
    const page = String(await errorPageHtml('<script>alert("x")</script>'));
    expect(page).not.toContain("<script>");
    expect(page).toContain("&lt;script&gt;");
    expect(page).toContain("页面暂时无法显示");
  });
});

describe("site settings: derived from the validated configuration, never parsed again", () => {
  it("blank texts take the defaults, set ones are trimmed; without SITE_URL the origin is the request's", () => {
    const site = siteOf({ FILING_NUMBER: "  ", SITE_NAME: " 我的影视 " }, "http://localhost:8787");
    expect(site.filingNumber).toBe(DEFAULT_SITE_CONFIG.filingNumber);
    expect(site.siteName).toBe("我的影视");
    expect(site.origin).toBe("http://localhost:8787");
  });

  it("takes configured texts and SITE_URL's origin", () => {
    const site = siteOf({ SITE_URL: "https://tv.example.com/some/path", BUSINESS_CONTACT: "商务：QQ 123" }, "http://x");
    expect(site.origin).toBe("https://tv.example.com");
    expect(site.businessContact).toBe("商务：QQ 123");
  });

  it("a bad SITE_URL is refused by the configuration and by the builder, never ignored for the request's origin", () => {
    for (const bad of ["not a url", "tv.example.com", "ftp://tv.example.com"]) {
      const result = parseConfig({ SITE_URL: bad });
      expect(result.ok, bad).toBe(false);
      if (!result.ok) expect(result.message).toMatch(/SITE_URL: must/);
    }
    const texts = { SITE_NAME: "影视站", BUSINESS_CONTACT: "b", FILING_NUMBER: "f", CULTURE_LICENCE: "c" };
    expect(() => siteConfigFrom({ ...texts, SITE_URL: "not a url" }, "http://x")).toThrow(/SITE_URL: must be an absolute URL/);
  });
});
