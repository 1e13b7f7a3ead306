/**
 * What the worker bundle gets in place of a module only a browser runs (wrangler.toml `[alias]`):
 * hls.js, which the player imports on demand (shared/player/load-hls.ts, `loadHls`). esbuild
 * follows that dynamic import into the worker bundle, where it was ~180 KiB gzip the worker never
 * runs (docs/decisions/0057-browser-only-modules.md). The server never starts playback; if it
 * ever imported this, the import fails loudly instead of running a browser library.
 */
throw new Error("a browser-only module (hls.js) was imported in the worker");
