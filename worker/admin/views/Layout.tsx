/**
 * The 管理后台's page frame (docs/decisions/0072-admin-app.md): its own document, stylesheet and
 * script (virtual:admin-assets, never a viewer page's), zh-CN, noindex. Rendered to static HTML
 * by worker/admin/pages.tsx; nothing is hydrated.
 */
import type { ReactNode } from "react";
import adminAssets from "virtual:admin-assets";
import { ROLE_NAMES, type AdminRole } from "../../../shared/admin/roles";

/** A screen of the navigation; only screens that exist are listed. */
export interface NavItem {
  href: string;
  label: string;
}

export interface Signed {
  email: string;
  role: AdminRole;
}

export interface LayoutProps {
  title: string;
  siteName: string;
  /** Signed in past the second step: the navigation and who is signed in. */
  nav?: { items: NavItem[]; current: string; who: Signed };
  children: ReactNode;
}

export function Layout({ title, siteName, nav, children }: LayoutProps) {
  return (
    <html lang="zh-CN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <title>{`${title} - ${siteName}管理后台`}</title>
        {adminAssets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {adminAssets.scripts.map((src) => (
          <script key={src} type="module" src={src} />
        ))}
      </head>
      <body>
        <header className="admin-top">
          <a className="admin-brand" href="/admin">
            {siteName}管理后台
          </a>
          {nav ? (
            <nav className="admin-nav" aria-label="管理后台">
              <ul>
                {nav.items.map((item) => (
                  <li key={item.href}>
                    <a href={item.href} aria-current={item.href === nav.current ? "page" : undefined}>
                      {item.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <span className="admin-who">
            {nav ? `${nav.who.email}（${ROLE_NAMES[nav.who.role]}）· ` : null}
            <a href="/">返回网站</a>
          </span>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}

/** A line of feedback above a form. */
/**
 * A POST form that asks before it is sent (client/admin/admin.ts shows `confirm` and sends the
 * form only on 确定; without JavaScript it is sent at once and the server decides), with at most
 * one hidden field naming what it acts on. `children`: its button (and any text around it).
 */
export function ConfirmForm({
  action,
  confirm,
  hidden,
  className,
  children,
}: {
  action: string;
  confirm: string;
  hidden?: { name: string; value: string | number };
  className?: string;
  children: ReactNode;
}) {
  return (
    <form method="post" action={action} className={className} data-confirm={confirm}>
      {hidden ? <input type="hidden" name={hidden.name} value={hidden.value} /> : null}
      {children}
    </form>
  );
}

export function Notice({ kind, children }: { kind: "ok" | "error"; children: ReactNode }) {
  return (
    <p className={`notice notice-${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </p>
  );
}

/** One choice of a `SelectField`. */
export interface Choice {
  value: string;
  label: string;
}

/** A labelled <select> of an admin form; `any` puts 全部 (the empty value) first. */
export function SelectField({
  id,
  name,
  label,
  choices,
  value,
  any = false,
}: {
  id: string;
  name: string;
  label: string;
  choices: readonly Choice[];
  value: string;
  any?: boolean;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value}>
        {any ? <option value="">全部</option> : null}
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}
