import type { ReactNode } from "react";
import type { PageScripts } from "./playback/engine-choice";
import { pageHeadScript } from "./player/page-scripts";

/** Hashed client files the page needs (from the Vite manifest). */
export interface DocumentAssets {
  scripts: string[];
  styles: string[];
  preloads: string[];
  /**
   * On pages that play a stream: the hls.js chunk and the player island's chunks. There an inline
   * script decides when the page's modules load (client/inline/page-head.ts and
   * page-boot.ts): after the video's first frame where the browser plays the stream itself,
   * after the early hls.js start has a head start where hls.js plays it (then with these chunks),
   * at once elsewhere.
   */
  streamChunks?: string[];
  /** With streamChunks: the early hls.js start and hls.js (shared/playback/engine-choice.ts, PageScripts). */
  hlsStart?: string[];
}

/** The scripts of a page with a player, which its inline head and boot scripts start (null on other pages). */
export function playerPageScripts(assets: DocumentAssets): PageScripts | null {
  const { streamChunks, hlsStart } = assets;
  return streamChunks && hlsStart ? { ...assets, streamChunks, hlsStart } : null;
}

/** The whole HTML document; the browser hydrates it as it is (hydrateRoot(document, …)). */
export function Document({ assets, nonce, children }: { assets: DocumentAssets; nonce?: string; children: ReactNode }) {
  const playerScripts = playerPageScripts(assets);
  return (
    <html lang="zh-CN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#0f1115" />
        <meta name="format-detection" content="telephone=no" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* Before the stylesheet: an inline script after it would wait for it. The browser hides
            the nonce from the DOM after parsing: hydration does not compare it. */}
        {playerScripts ? <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: pageHeadScript(playerScripts) }} /> : null}
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {playerScripts ? null : assets.preloads.map((href) => <link key={href} rel="modulepreload" href={href} />)}
      </head>
      <body>{children}</body>
    </html>
  );
}
