// The worker's one origin check (worker/auth/csrf.ts): forms and beacons may lack an Origin, the
// 弹幕 socket and send may not; SITE_URL's origin counts as this site's only when the caller names it.
import { describe, expect, it } from "vitest";
import { isCrossSiteRequest, isFromThisSite, isSameSiteRequest } from "../../worker/auth/csrf";

const SITE = "https://yingshi.test";

function request(headers: Record<string, string> = {}, url = SITE + "/api/x"): Request {
  return new Request(url, { method: "POST", headers });
}

describe("isSameSiteRequest", () => {
  it("this origin passes under both policies; another origin, null, empty or a cross-site fetch never does", () => {
    for (const requireOrigin of [false, true]) {
      expect(isSameSiteRequest(request({ Origin: SITE }), { requireOrigin })).toBe(true);
      expect(isSameSiteRequest(request({ Origin: SITE, "Sec-Fetch-Site": "same-origin" }), { requireOrigin })).toBe(true);
      const foreign: Record<string, string>[] = [
        { Origin: "https://evil.example" },
        { Origin: "http://yingshi.test" },
        { Origin: "https://yingshi.test:8443" },
        { Origin: "null" },
        { Origin: "" },
        { Origin: SITE, "Sec-Fetch-Site": "cross-site" },
        { "Sec-Fetch-Site": "cross-site" },
      ];
      for (const headers of foreign) expect(isSameSiteRequest(request(headers), { requireOrigin }), `${requireOrigin} ${JSON.stringify(headers)}`).toBe(false);
    }
  });

  it("a request without Origin passes only where it is not required (forms, curl), never for sockets and JSON posts", () => {
    expect(isSameSiteRequest(request(), { requireOrigin: false })).toBe(true);
    expect(isSameSiteRequest(request({ "Sec-Fetch-Site": "same-origin" }), { requireOrigin: false })).toBe(true);
    expect(isSameSiteRequest(request(), { requireOrigin: true })).toBe(false);
    expect(isCrossSiteRequest(request())).toBe(false);
    expect(isCrossSiteRequest(request({ Origin: "https://evil.example" }))).toBe(true);
  });

  it("SITE_URL's origin counts only when given, and a malformed or empty SITE_URL adds nothing", () => {
    const viaWorkersDev = (origin: string) => request({ Origin: origin }, "https://yingshi.example.workers.dev/api/danmaku/v3/");
    expect(isSameSiteRequest(viaWorkersDev(SITE), { requireOrigin: true, siteUrl: SITE + "/" })).toBe(true);
    expect(isSameSiteRequest(viaWorkersDev(SITE), { requireOrigin: true })).toBe(false);
    expect(isCrossSiteRequest(viaWorkersDev(SITE))).toBe(true);
    expect(isSameSiteRequest(viaWorkersDev(SITE), { requireOrigin: true, siteUrl: "not a url" })).toBe(false);
    expect(isSameSiteRequest(viaWorkersDev(""), { requireOrigin: true, siteUrl: "" })).toBe(false);
  });
});

describe("isFromThisSite (every JSON API, socket and beacon)", () => {
  const env = (SITE_URL?: string) => ({ SITE_URL }) as unknown as Env;
  it("needs an Origin, and takes this origin or the configured SITE_URL's", () => {
    const mirror = "https://tv.example.com";
    expect(isFromThisSite(request({ Origin: SITE }), env())).toBe(true);
    expect(isFromThisSite(request(), env())).toBe(false);
    expect(isFromThisSite(request({ Origin: mirror }), env())).toBe(false);
    expect(isFromThisSite(request({ Origin: mirror }), env(`${mirror}/`))).toBe(true);
    expect(isFromThisSite(request({ Origin: "https://evil.example" }), env(`${mirror}/`))).toBe(false);
  });
});
