/**
 * Debian's Chromium as every headless run here launches it (the e2e tests, tests/e2e/browser.ts;
 * `npm run bench:video`; `npm run bench:watch`): its path (CHROMIUM_PATH overrides) and the flags
 * they share — no sandbox or GPU in the container, no QUIC (the local front speaks HTTP/2), no
 * background traffic of the browser's own, and video that may start without a gesture.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_FLAGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--autoplay-policy=no-user-gesture-required",
];
