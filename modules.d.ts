/** Modules that wrangler.toml's [alias] and the Vite build provide (not npm packages). */

declare module "virtual:client-assets" {
  const assets: {
    scripts: string[];
    styles: string[];
    preloads: string[];
    /** Source path of a lazily loaded module → its chunk and the chunks it imports. */
    lazy: Record<string, string[]>;
    /** A declared route's id (shared/routes/{id}.route.ts) → the chunks of its page and what they import. */
    routes: Record<string, string[]>;
    /** The early hls.js start's chunk, then the chunks it imports (client/hls-start-boot.ts). */
    hlsStart: string[];
  };
  export default assets;
}

/** The 管理后台's client files (scripts/admin/vite-admin-assets.ts): loaded by /admin pages only. */
declare module "virtual:admin-assets" {
  const assets: { scripts: string[]; styles: string[] };
  export default assets;
}

/** hls.js's light build (package export "hls.js/light"): the same API as the full build. */
declare module "hls.js/light" {
  import Hls from "hls.js";
  export default Hls;
}

/**
 * A player page's inline scripts, compiled from client/inline/ (scripts/inline-scripts.ts): each
 * is the code before the page's files and the code after them (shared/player/page-scripts.ts).
 */
declare module "virtual:inline-scripts" {
  export const head: readonly [before: string, after: string];
  export const boot: readonly [before: string, after: string];
}
