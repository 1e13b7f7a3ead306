import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { videos } from "../../scripts/catalogue/titles";
import { sitemapPaths } from "../../worker/seo";
import { BASE } from "./helpers/visitor";

describe("security headers", () => {
  it("HTML gets a CSP with a fresh nonce on every inline script and no 'unsafe-inline' for scripts", async () => {
    const one = await SELF.fetch(BASE + "/");
    const two = await SELF.fetch(BASE + "/");
    const csp = one.headers.get("Content-Security-Policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(/'nonce-([^']+)'/.exec(two.headers.get("Content-Security-Policy") ?? "")?.[1]).not.toBe(nonce);
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("img-src 'self'");
    expect(csp).toContain("media-src 'self'");
    const html = await one.text();
    await two.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    const executable = scripts.filter((s) => !s.includes('type="application/ld+json"'));
    expect(executable.length).toBeGreaterThanOrEqual(2);
    for (const tag of executable) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("every response carries the hardening headers and no banner", async () => {
    for (const path of ["/", "/api/auth/user", "/1.webp", "/nope", "/sitemap.xml"]) {
      const res = await SELF.fetch(BASE + path);
      await res.arrayBuffer();
      expect(res.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
      expect(res.headers.get("Referrer-Policy"), path).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("X-Frame-Options"), path).toBe("DENY");
      expect(res.headers.get("Strict-Transport-Security"), path).toContain("max-age=");
      expect(res.headers.get("X-Powered-By"), path).toBeNull();
      expect(res.headers.get("Server"), path).toBeNull();
    }
  });
});

describe("SEO files", () => {
  it("sitemap.xml lists home, categories, listings, info pages and every title and episode page with absolute URLs", async () => {
    const res = await SELF.fetch(BASE + "/sitemap.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("application/xml");
    const xml = await res.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs.filter((l) => !l.includes("/video/"))).toHaveLength(sitemapPaths().length);
    expect(locs).toContain("https://yingshi.test/");
    expect(locs).toContain("https://yingshi.test/category/%E7%94%B5%E5%BD%B1");
    expect(locs).toContain("https://yingshi.test/top-rated");
    expect(locs).toContain("https://yingshi.test/info/help");
    const pages = videos.reduce((n, v) => n + (v.episodes?.length ?? 1), 0);
    expect(locs.filter((l) => l.includes("/video/"))).toHaveLength(pages);
    expect(locs).toContain("https://yingshi.test/ranking");
  });

  it("robots.txt points to the sitemap", async () => {
    const text = await (await SELF.fetch(BASE + "/robots.txt")).text();
    expect(text).toContain("Sitemap: https://yingshi.test/sitemap.xml");
    expect(text).toContain("Disallow: /api/");
  });

  it("every page has a title, a description, a canonical link and Open Graph tags", async () => {
    for (const path of ["/", "/category/all", "/latest", "/search?q=家", "/video/video_002", "/info/about", "/auth"]) {
      const html = await (await SELF.fetch(BASE + path)).text();
      expect(html, path).toMatch(/<title>[^<]+ - 影视站<\/title>/);
      expect(html, path).toMatch(/<meta name="description" content="[^"]{10,}"/);
      expect(html, path).toMatch(/<link rel="canonical" href="https:\/\/yingshi\.test\//);
      expect(html, path).toContain('property="og:title"');
      expect(html, path).toContain('property="og:image" content="https://yingshi.test/');
    }
  });

  it("crawlers get the whole document", async () => {
    const res = await SELF.fetch(BASE + "/video/video_001", { headers: { "User-Agent": "Mozilla/5.0 (compatible; Baiduspider/2.0)" } });
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
  });
});
