/**
 * Prefetch on intent: when a pointer rests on a link to a data page (shared/routes/declare.ts) (hover), a finger
 * touches it (touchstart), or — on phones, where there is no hover — the link enters the
 * viewport, the browser fetches that page's loader data (client/page-data.ts) at low priority.
 * The answer is cacheable for a minute (worker/catalogue/api.ts), so the navigation that follows
 * reads it from the browser cache instead of waiting for the network.
 */
import { pageDataUrl } from "./page-data";

/** Each data URL once per page view. */
const requested = new Set<string>();

/** Hovering shorter than this is a pointer passing by, not intent. */
const HOVER_DELAY_MS = 80;

/** Whether a path shows a data page (set by installPrefetch). */
let isDataPage: (pathname: string) => boolean = () => false;

function dataUrlOf(anchor: HTMLAnchorElement): string | null {
  if (anchor.target && anchor.target !== "_self") return null;
  if (anchor.hasAttribute("download")) return null;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin || !isDataPage(url.pathname)) return null;
  if (url.pathname === location.pathname && url.search === location.search) return null;
  return pageDataUrl(url);
}

export function prefetchLink(anchor: HTMLAnchorElement): void {
  const url = dataUrlOf(anchor);
  if (!url || requested.has(url)) return;
  requested.add(url);
  void fetch(url, { headers: { Accept: "application/json" }, priority: "low" }).catch(() => requested.delete(url));
}

function anchorOf(target: EventTarget | null): HTMLAnchorElement | null {
  return target instanceof Element ? target.closest("a[href]") : null;
}

/**
 * Starts prefetching on intent for the whole document (links rendered later included), for links
 * to the paths `dataPage` says are data pages (shared/routes/create-routes.tsx, isDataPageIn).
 */
export function installPrefetch(doc: Document, dataPage: (pathname: string) => boolean): void {
  isDataPage = dataPage;
  let hoverTimer: ReturnType<typeof setTimeout> | undefined;
  doc.addEventListener("pointerover", (event) => {
    if (event.pointerType !== "mouse") return;
    const anchor = anchorOf(event.target);
    clearTimeout(hoverTimer);
    if (anchor) hoverTimer = setTimeout(() => prefetchLink(anchor), HOVER_DELAY_MS);
  });
  doc.addEventListener("pointerout", () => clearTimeout(hoverTimer));
  doc.addEventListener(
    "touchstart",
    (event) => {
      const anchor = anchorOf(event.target);
      if (anchor) prefetchLink(anchor);
    },
    { passive: true },
  );
  doc.addEventListener("focusin", (event) => {
    const anchor = anchorOf(event.target);
    if (anchor) prefetchLink(anchor);
  });

  // Phones (no hover): the links in view are the likely next taps.
  if (typeof IntersectionObserver === "undefined" || !matchMedia("(hover: none) and (pointer: coarse)").matches) return;
  const seen = new WeakSet<Element>();
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        prefetchLink(entry.target as HTMLAnchorElement);
      }
    },
    { rootMargin: "0px" },
  );
  const observeAll = () => {
    for (const anchor of doc.querySelectorAll<HTMLAnchorElement>("main a.video-card-link, main .pagination a[href]")) {
      if (seen.has(anchor)) continue;
      seen.add(anchor);
      observer.observe(anchor);
    }
  };
  observeAll();
  new MutationObserver(observeAll).observe(doc.body, { childList: true, subtree: true });
}
