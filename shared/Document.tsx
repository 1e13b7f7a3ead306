import type { ReactNode } from "react";

/** Hashed client files the page needs (from the Vite manifest). */
export interface DocumentAssets {
  scripts: string[];
  styles: string[];
  preloads: string[];
}

/** The whole HTML document; the browser hydrates it as it is (hydrateRoot(document, …)). */
export function Document({ assets, children }: { assets: DocumentAssets; children: ReactNode }) {
  return (
    <html lang="zh-CN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#0f1115" />
        <meta name="format-detection" content="telephone=no" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {assets.preloads.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
      </head>
      <body>{children}</body>
    </html>
  );
}
