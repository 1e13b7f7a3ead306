import { describe, expect, it } from "vitest";
import { navigationFor, type Click, type NavAnchor, type Here } from "../../client/link-navigation";

const click: Click = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false, defaultPrevented: false };
const here: Here = { origin: "https://yingshi.example", pathname: "/category/all", search: "?page=2", hash: "" };
const link = (href: string, more: Partial<NavAnchor> = {}): NavAnchor => ({
  href: `https://yingshi.example${href}`,
  target: "",
  download: false,
  nav: "push",
  ...more,
});

describe("plain page links (PageLink) and the router", () => {
  it("a plain left click on a site link navigates in the page, keeping the query and hash", () => {
    expect(navigationFor(click, link("/video/video_001"), here)).toEqual({ to: "/video/video_001", replace: false });
    expect(navigationFor(click, link("/category/%E7%94%B5%E5%BD%B1?sort=rating#top"), here)).toEqual({
      to: "/category/%E7%94%B5%E5%BD%B1?sort=rating#top",
      replace: false,
    });
  });

  it("replaces the history entry for data-nav=replace and for a link to the page itself", () => {
    expect(navigationFor(click, link("/category/all?view=list", { nav: "replace" }), here)).toEqual({ to: "/category/all?view=list", replace: true });
    expect(navigationFor(click, link("/category/all?page=2"), here)).toEqual({ to: "/category/all?page=2", replace: true });
  });

  it("leaves new-tab, new-window, download and other-button clicks to the browser", () => {
    for (const key of ["metaKey", "ctrlKey", "shiftKey", "altKey"] as const)
      expect(navigationFor({ ...click, [key]: true }, link("/latest"), here), key).toBeNull();
    expect(navigationFor({ ...click, button: 1 }, link("/latest"), here)).toBeNull();
    expect(navigationFor({ ...click, defaultPrevented: true }, link("/latest"), here)).toBeNull();
  });

  it("leaves links with a target, a download attribute, no data-nav or another origin to the browser", () => {
    expect(navigationFor(click, link("/latest", { target: "_blank" }), here)).toBeNull();
    expect(navigationFor(click, link("/latest", { target: "_self" }), here)).toEqual({ to: "/latest", replace: false });
    expect(navigationFor(click, link("/1.mp4", { download: true }), here)).toBeNull();
    expect(navigationFor(click, link("/latest", { nav: null }), here)).toBeNull();
    expect(navigationFor(click, { ...link("/"), href: "https://elsewhere.example/latest" }, here)).toBeNull();
  });
});
