import { describe, expect, it } from "vitest";
import { slashlessPagePath } from "../../shared/routes/route-at";

describe("slashlessPagePath: a declared page's path with trailing slashes", () => {
  it.each([
    ["/video/video_001/", "/video/video_001"],
    ["/video/video_001//", "/video/video_001"],
    ["/latest/", "/latest"],
    ["/category/%E7%94%B5%E5%BD%B1/", "/category/%E7%94%B5%E5%BD%B1"],
    ["/info/about/", "/info/about"],
    ["/video/video_003/2/", "/video/video_003/2"],
  ])("%s → %s", (path, page) => {
    expect(slashlessPagePath(path)).toBe(page);
  });

  it.each([["/"], ["//"], ["/video/video_001"], ["/no-such-page/"], ["//evil.example/"], ["/video/"], ["/video/a/b/c/"]])("%s → none", (path) => {
    expect(slashlessPagePath(path)).toBeNull();
  });
});
