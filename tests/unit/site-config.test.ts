import { describe, expect, it } from "vitest";
import { siteDefaults } from "../../scripts/site-defaults.mjs";
import { DEFAULT_SITE_CONFIG, defaultSiteConfig, siteConfigFrom } from "../../shared/site-config";
import { errorPageHtml } from "../../worker/error-page";

describe("site configuration: one set of defaults (shared/site-defaults.json)", () => {
  it("the worker, the client and the scripts read the same defaults", () => {
    expect(siteDefaults()).toEqual(DEFAULT_SITE_CONFIG);
    expect(defaultSiteConfig("https://tv.example")).toEqual({ ...DEFAULT_SITE_CONFIG, origin: "https://tv.example" });
    expect(siteConfigFrom({}, "http://localhost:8787")).toEqual(defaultSiteConfig("http://localhost:8787"));
  });

  it("the defaults are the spec's texts", () => {
    expect(DEFAULT_SITE_CONFIG).toEqual({
      siteName: "影视站",
      businessContact: "商务合作请联系：微信 yingshi_bd",
      filingNumber: "京ICP备2025000000号-1",
      cultureLicence: "网络文化经营许可证：京网文〔2025〕0000-000号",
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
