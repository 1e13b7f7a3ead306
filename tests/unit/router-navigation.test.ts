import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { data, isRouteErrorResponse, redirect, type LoaderFunctionArgs, type RouteObject } from "../../shared/router";
import { createBrowserRouter, isHashChangeOnly, navigationKind, type BrowserRouter } from "../../shared/router/browser";
import { loadMatches } from "../../shared/router/load";
import { matchRoutes } from "../../shared/router/match";
import { isActivePath } from "../../shared/router/react";

/**
 * The router's navigation rules (shared/router/browser.ts, load.ts, react.tsx): what a
 * navigation loads, when the address changes, which history entry it writes, where errors and
 * redirects go. The browser router runs against a small stand-in for the window's location and
 * history (the unit project has no DOM).
 */

/** A window with a session history: pushState/replaceState/go and popstate, as a browser keeps them. */
function historyWindow(start: string) {
  const entries: Array<{ url: URL; state: unknown }> = [{ url: new URL(start), state: null }];
  let index = 0;
  const listeners: Array<() => void> = [];
  const assigned: string[] = [];
  const history = {
    get state() {
      return entries[index].state;
    },
    get length() {
      return entries.length;
    },
    pushState(state: unknown, _title: string, url: string) {
      entries.splice(index + 1, entries.length, { url: new URL(url, entries[index].url), state });
      index++;
    },
    replaceState(state: unknown, _title: string, url?: string) {
      entries[index] = { url: url === undefined ? entries[index].url : new URL(url, entries[index].url), state };
    },
    go(delta: number) {
      index += delta;
      queueMicrotask(() => listeners.forEach((l) => l()));
    },
  };
  const location = {
    get href() {
      return entries[index].url.href;
    },
    get origin() {
      return entries[index].url.origin;
    },
    get pathname() {
      return entries[index].url.pathname;
    },
    get search() {
      return entries[index].url.search;
    },
    get hash() {
      return entries[index].url.hash;
    },
    assign(href: string) {
      assigned.push(href);
    },
  };
  const addEventListener = (type: string, listener: () => void) => {
    if (type === "popstate") listeners.push(listener);
  };
  const scrolls: number[] = [];
  const scrollTo = (_x: number, y: number) => scrolls.push(y);
  return {
    history,
    location,
    addEventListener,
    scrollTo,
    scrolls,
    entries: () => entries.map((e) => e.url.pathname + e.url.search + e.url.hash),
    here: () => index,
    assigned,
  };
}

/** A promise resolved from outside. */
function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

let win: ReturnType<typeof historyWindow>;
const calls: string[] = [];
const signals: AbortSignal[] = [];
let gate: Promise<void> | null = null;

function pageLoader(name: string) {
  return async ({ request, params }: LoaderFunctionArgs) => {
    calls.push(`${name} ${new URL(request.url).pathname}${new URL(request.url).search}`);
    signals.push(request.signal);
    const waitFor = gate;
    if (waitFor) await waitFor;
    return { name, params, href: request.url };
  };
}

function table(): RouteObject[] {
  return [
    {
      id: "root",
      path: "/",
      loader: () => ({ user: null }),
      element: null,
      errorElement: "root error",
      children: [
        {
          id: "pages",
          errorElement: "page error",
          children: [
            { id: "home", index: true, loader: pageLoader("home") },
            { id: "video", path: "video/:id", loader: pageLoader("video") },
            { id: "old", path: "old", loader: () => redirect("/video/moved") },
            { id: "away", path: "away", loader: () => redirect("https://elsewhere.test/x") },
            {
              id: "missing",
              path: "*",
              loader: () => {
                throw data({ kind: "page" }, { status: 404 });
              },
            },
          ],
        },
      ],
    },
  ];
}

let router: BrowserRouter;

beforeEach(() => {
  win = historyWindow("https://site.test/video/a");
  vi.stubGlobal("window", win);
  calls.length = 0;
  signals.length = 0;
  gate = null;
  router = createBrowserRouter(table(), { loaderData: { root: { user: null }, video: { name: "video" } }, errors: null });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the browser router", () => {
  it("starts from the hydration data without loading anything, at key 'default'", () => {
    expect(calls).toEqual([]);
    expect(router.state.location).toMatchObject({ pathname: "/video/a", key: "default" });
    expect(router.state.matches.map((m) => m.route.id)).toEqual(["root", "pages", "video"]);
    expect(router.state.loaderData.video).toEqual({ name: "video" });
  });

  it("a push loads the new page's data first, then changes the address and adds one history entry", async () => {
    const held = deferred();
    gate = held.promise;
    const done = router.navigate("/video/b?t=30");
    await Promise.resolve();
    expect(calls).toEqual(["video /video/b?t=30"]);
    expect(win.entries()).toEqual(["/video/a"]); // not yet
    held.resolve();
    await done;
    expect(win.entries()).toEqual(["/video/a", "/video/b?t=30"]);
    expect(router.state.location).toMatchObject({ pathname: "/video/b", search: "?t=30" });
    expect(router.state.location.key).not.toBe("default");
    expect(router.state.loaderData.video).toMatchObject({ params: { id: "b" } });
  });

  it("replace writes over the current entry; a navigation to the page itself replaces too", async () => {
    await router.navigate("/video/b", { replace: true });
    expect(win.entries()).toEqual(["/video/b"]);
    await router.navigate("/video/b");
    expect(win.entries()).toEqual(["/video/b"]);
    await router.navigate("?t=5");
    expect(win.entries()).toEqual(["/video/b", "/video/b?t=5"]);
  });

  it("a newer navigation aborts an older one: its data requests are cancelled and it never shows", async () => {
    const held = deferred();
    gate = held.promise;
    const first = router.navigate("/video/slow");
    gate = null;
    await router.navigate("/video/fast");
    held.resolve();
    await first;
    expect(signals[0].aborted).toBe(true);
    expect(router.state.location.pathname).toBe("/video/fast");
    expect(win.entries()).toEqual(["/video/a", "/video/fast"]);
  });

  it("a loader's redirect goes on to its target (a push stays one entry); another origin loads the document", async () => {
    await router.navigate("/old");
    expect(win.entries()).toEqual(["/video/a", "/video/moved"]);
    expect(router.state.location.pathname).toBe("/video/moved");
    await router.navigate("/away");
    expect(win.assigned).toEqual(["https://elsewhere.test/x"]);
    expect(router.state.location.pathname).toBe("/video/moved");
  });

  it("a thrown data(…, 404) is shown by the nearest error boundary, the root data stays", async () => {
    await router.navigate("/no/such");
    const error = router.state.errors?.pages;
    expect(isRouteErrorResponse(error) && error.status).toBe(404);
    expect(router.state.loaderData.root).toEqual({ user: null });
  });

  it("a change of the hash alone loads nothing", async () => {
    await router.navigate("#comments");
    expect(calls).toEqual([]);
    expect(router.state.location).toMatchObject({ pathname: "/video/a", hash: "#comments" });
    expect(win.entries()).toEqual(["/video/a", "/video/a#comments"]);
  });

  it("a push opens the new page at its top, once it shows; preventScrollReset, replace and back/forward keep the position", async () => {
    const held = deferred();
    gate = held.promise;
    const done = router.navigate("/video/b");
    await Promise.resolve();
    expect(win.scrolls).toEqual([]); // the old page stays where it was while the new one loads
    held.resolve();
    await done;
    expect(win.scrolls).toEqual([0]);
    await router.navigate("/video/c", { preventScrollReset: true });
    await router.navigate("/video/d", { replace: true });
    window.history.go(-1);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe("/video/b"));
    expect(win.scrolls).toEqual([0]);
  });

  it("back and forward load the page of the entry they reach, without writing history", async () => {
    await router.navigate("/video/b", { state: { from: "test" } });
    calls.length = 0;
    window.history.go(-1);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe("/video/a"));
    expect(calls).toEqual(["video /video/a"]);
    window.history.go(1);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe("/video/b"));
    expect(router.state.location.state).toEqual({ from: "test" });
    expect(win.entries()).toEqual(["/video/a", "/video/b"]);
  });

  it("revalidation reloads the current page's data in place; during a navigation it restarts that navigation", async () => {
    await router.revalidate();
    expect(calls).toEqual(["video /video/a"]);
    expect(win.entries()).toEqual(["/video/a"]);
    const held = deferred();
    gate = held.promise;
    const going = router.navigate("/video/b");
    gate = null;
    const again = router.revalidate();
    held.resolve();
    await Promise.all([going, again]);
    expect(signals[1].aborted).toBe(true);
    expect(calls.slice(1)).toEqual(["video /video/b", "video /video/b"]);
    expect(win.entries()).toEqual(["/video/a", "/video/b"]);
  });

  it("each new state reaches the subscribers once", async () => {
    const seen: string[] = [];
    router.subscribe((state) => seen.push(state.location.pathname));
    await router.navigate("/video/b");
    await router.navigate("/");
    expect(seen).toEqual(["/video/b", "/"]);
  });
});

describe("loading a branch (the worker's render and the browser's navigations)", () => {
  const run = (path: string) => {
    const routes = table();
    return loadMatches(matchRoutes(routes, path) ?? [], new Request("https://site.test" + path));
  };

  it("a page's data with status 200; a thrown 404 at the boundary with its status; an Error 500", async () => {
    const page = await run("/video/x");
    expect(page).toMatchObject({ statusCode: 200, errors: null, loaderData: { root: { user: null }, video: { name: "video" } } });
    expect(await run("/nope")).toMatchObject({ statusCode: 404, errors: { pages: { status: 404, data: { kind: "page" } } } });
    const routes: RouteObject[] = [
      {
        id: "root",
        path: "/",
        errorElement: "x",
        loader: () => {
          throw new Error("down");
        },
        children: [{ id: "leaf", index: true, loader: () => data({ ok: true }, { status: 203 }) }],
      },
    ];
    const failed = await loadMatches(matchRoutes(routes, "/") ?? [], new Request("https://site.test/"));
    expect(failed).toMatchObject({ statusCode: 500, loaderData: { leaf: { ok: true } } });
    expect(!(failed instanceof Response) && failed.errors?.root).toBeInstanceOf(Error);
  });

  it("a redirect ends the load", async () => {
    const outcome = await run("/old");
    expect(outcome instanceof Response && [outcome.status, outcome.headers.get("Location")]).toEqual([302, "/video/moved"]);
  });
});

describe("rules", () => {
  const at = (href: string) => {
    const url = new URL(href, "https://site.test");
    return { pathname: url.pathname, search: url.search, hash: url.hash, state: null, key: "k" };
  };

  it("a hash-only change is one to a new, non-empty hash on the same path and query", () => {
    expect(isHashChangeOnly(at("/a"), at("/a#x"))).toBe(true);
    expect(isHashChangeOnly(at("/a#x"), at("/a#y"))).toBe(true);
    expect(isHashChangeOnly(at("/a#x"), at("/a"))).toBe(false);
    expect(isHashChangeOnly(at("/a"), at("/a?q=1#x"))).toBe(false);
    expect(isHashChangeOnly(at("/a#x"), at("/a#x"))).toBe(false);
  });

  it("push unless told or going to the page itself", () => {
    expect(navigationKind(at("/a"), new URL("https://site.test/b"), undefined)).toBe("push");
    expect(navigationKind(at("/a"), new URL("https://site.test/a"), undefined)).toBe("replace");
    expect(navigationKind(at("/a"), new URL("https://site.test/a"), false)).toBe("push");
    expect(navigationKind(at("/a"), new URL("https://site.test/b"), true)).toBe("replace");
  });

  it("a NavLink is active on its page and the pages below it, by encoded path, case-insensitive", () => {
    expect(isActivePath("/category/电影", at("/category/%E7%94%B5%E5%BD%B1"))).toBe(true);
    expect(isActivePath("/category/电影", at("/category/%e7%94%b5%e5%bd%b1?page=2"))).toBe(true);
    expect(isActivePath("/ranking", at("/ranking/week"))).toBe(true);
    expect(isActivePath("/ranking", at("/rankings"))).toBe(false);
    expect(isActivePath("/ranking", at("/ranking/week"), true)).toBe(false);
    expect(isActivePath("/", at("/ranking"))).toBe(false);
    expect(isActivePath("/", at("/"))).toBe(true);
  });
});
