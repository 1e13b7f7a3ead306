/**
 * Client navigation for the site's plain links (shared/components/PageLink.tsx): one click
 * handler for the whole document turns a plain left click on an `<a data-nav>` of this origin
 * into a router navigation, as React Router's `<Link>` does for its own. Clicks with a modifier
 * (new tab, new window, download), other buttons, links with a target or a download attribute,
 * other origins, and clicks a handler already took (defaultPrevented) stay with the browser.
 */
import { NAV_ATTRIBUTE } from "../shared/components/PageLink";

/** The parts of a click that decide whether the router takes it. */
export type Click = Pick<MouseEvent, "button" | "metaKey" | "ctrlKey" | "shiftKey" | "altKey" | "defaultPrevented">;

/** The clicked link: its resolved href, target, download attribute and `data-nav` value. */
export interface NavAnchor {
  href: string;
  target: string;
  download: boolean;
  nav: string | null;
}

/** Where the page is: the parts of `Location` a navigation compares with. */
export type Here = Pick<Location, "origin" | "pathname" | "search" | "hash">;

export type Navigate = (to: string, options: { replace: boolean }) => void;

/**
 * The path the router navigates to for a click on `anchor`, or null when the browser follows the
 * link itself. A link to the page itself replaces the history entry (as `<Link>` does), as does
 * `data-nav="replace"`.
 */
export function navigationFor(click: Click, anchor: NavAnchor, here: Here): { to: string; replace: boolean } | null {
  if (click.defaultPrevented || click.button !== 0 || click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return null;
  if (anchor.nav === null || (anchor.target !== "" && anchor.target !== "_self") || anchor.download) return null;
  const url = new URL(anchor.href, here.origin);
  if (url.origin !== here.origin) return null;
  const to = url.pathname + url.search + url.hash;
  return { to, replace: anchor.nav === "replace" || to === here.pathname + here.search + here.hash };
}

export function installLinkNavigation(doc: Document, navigate: Navigate): void {
  doc.addEventListener("click", (event) => {
    const a = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>(`a[${NAV_ATTRIBUTE}]`) : null;
    if (!a) return;
    const target = navigationFor(
      event,
      { href: a.href, target: a.target, download: a.hasAttribute("download"), nav: a.getAttribute(NAV_ATTRIBUTE) },
      doc.location,
    );
    if (!target) return;
    event.preventDefault();
    navigate(target.to, { replace: target.replace });
  });
}
