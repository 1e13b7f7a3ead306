import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "../../shared/safe-redirect";

const SITE = "https://site.example";

/** Where a browser on SITE would go with this Location. */
const resolved = (location: string) => new URL(location, SITE);

describe("safeRedirectPath", () => {
  it.each(["/", "/profile", "/video/video_001", "/category/all?page=2&sort=rating", "/search?q=%E5%AE%B6", "/info/about#faq", "/search?q=//not-a-host"])(
    "keeps the same-origin path %j",
    (path) => {
      expect(safeRedirectPath(path)).toBe(path);
    },
  );

  it("normalises what a browser would normalise (and stays a header-safe path)", () => {
    expect(safeRedirectPath("/category/电影")).toBe("/category/%E7%94%B5%E5%BD%B1");
    expect(safeRedirectPath("/a/../profile")).toBe("/profile");
    expect(safeRedirectPath("/search?q=a b")).toBe("/search?q=a%20b");
  });

  it.each([
    // other origins
    "//evil.example",
    "///evil.example",
    "//evil.example/profile",
    "/\\evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    "/\\/evil.example",
    "https://evil.example",
    "http://evil.example/profile",
    "HTTPS://evil.example",
    "https:evil.example",
    "//user@evil.example",
    // scripts and other schemes
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "mailto:a@b.example",
    // not a path
    "evil.example",
    "profile",
    "?next=/profile",
    "#top",
    " /profile",
    "",
    // backslashes anywhere
    "/profile\\..\\..\\evil",
    "/a\\b",
    // control characters that browsers strip
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/\u0000/evil.example",
    "/profile\u007f",
    // encoded variants that a decoder turns into another origin
    "/%2F%2Fevil.example",
    "/%2f%2fevil.example",
    "/%2F/evil.example",
    "/%5Cevil.example",
    "/%5cevil.example",
    "/%5C%5Cevil.example",
    "/%252F%252Fevil.example",
    "/%09/evil.example",
    "/%0a/evil.example",
    "/%00",
    // dot segments that collapse into "//"
    "/.//evil.example",
    "/..//evil.example",
    "/%2e%2e//evil.example",
    "/a/..//evil.example",
  ])("refuses %j", (attack) => {
    expect(safeRedirectPath(attack)).toBe("/");
  });

  it("uses the fallback for missing values and very long ones", () => {
    expect(safeRedirectPath(null)).toBe("/");
    expect(safeRedirectPath(undefined)).toBe("/");
    expect(safeRedirectPath(null, "/profile")).toBe("/profile");
    expect(safeRedirectPath("//evil.example", "/profile")).toBe("/profile");
    expect(safeRedirectPath("/" + "a".repeat(5000))).toBe("/");
  });

  const assertSameOrigin = (input: string) => {
    const result = safeRedirectPath(input);
    expect(result.startsWith("/")).toBe(true);
    expect(result.startsWith("//")).toBe(false);
    expect(result.startsWith("/\\")).toBe(false);
    expect(resolved(result).origin).toBe(SITE);
    // A Location header value must be a ByteString.
    expect(/[^\x20-\x7e]/.test(result)).toBe(false);
  };

  it("property: any string gives a same-origin path", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 200 }), assertSameOrigin), { numRuns: 1000 });
  });

  it("property: strings made of URL-ish pieces give a same-origin path", () => {
    const piece = fc.constantFrom(
      "/",
      "//",
      "\\",
      "%2F",
      "%2f",
      "%5C",
      "%25",
      "%",
      "%0",
      "%09",
      ".",
      "..",
      "%2e",
      ":",
      "@",
      "?",
      "#",
      "evil.example",
      "javascript:",
      "https:",
      "\t",
      "\n",
      " ",
      "中",
      "a",
    );
    const urlish = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(""));
    fc.assert(fc.property(urlish, assertSameOrigin), { numRuns: 3000 });
    fc.assert(
      fc.property(urlish, (s) => assertSameOrigin("/" + s)),
      { numRuns: 3000 },
    );
  });

  it("property: a result is a fixed point (safe paths stay as they are)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), (s) => {
        const once = safeRedirectPath("/" + s);
        expect(safeRedirectPath(once)).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });
});
