import type { AnchorHTMLAttributes } from "react";

/** Marks a plain link that the browser's router follows (client/link-navigation.ts); "replace" replaces the history entry. */
export const NAV_ATTRIBUTE = "data-nav";

interface PageLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  /** An absolute path of this site, with its query: `/video/abc`, `/category/all?page=2`. */
  to: string;
  /** Replace the current history entry instead of adding one (view switches). */
  replace?: boolean;
}

/**
 * A link to another page of the site rendered as a plain `<a>`: no router hooks, so the server
 * renders the cards, facets and page numbers of a listing (over a hundred links) without
 * resolving each path through the router. After hydration one click handler for the whole
 * document (client/link-navigation.ts) turns a plain left click on it into a client navigation,
 * as React Router's `<Link>` does; without JavaScript it is an ordinary link.
 */
export function PageLink({ to, replace = false, children, ...rest }: PageLinkProps) {
  return (
    <a {...rest} href={to} {...{ [NAV_ATTRIBUTE]: replace ? "replace" : "push" }}>
      {children}
    </a>
  );
}
