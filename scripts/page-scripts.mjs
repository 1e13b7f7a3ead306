// @ts-check
/**
 * The module files a page's HTML makes the browser fetch before it hydrates: its module scripts
 * and modulepreload links, and on a page with a player the files its inline boot script starts
 * (client/inline/page-boot.ts: the entry and the route's chunks). The chunks
 * only the hls.js path adds (hls.js and the player island) are not among them: they are not in
 * the route's JavaScript budget (docs/performance.md). Used by `npm run bench`, the catalogue
 * bench and tests/worker/js-budget.test.ts.
 * @param {string} html
 * @returns {string[]}
 */
export function scriptsBeforeHydration(html) {
  const scripts = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]);
  const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]*\shref="([^"]+)"/g)].map((m) => m[1]);
  const boot = inlineScripts(html).flatMap((s) => [...(bootScriptOf(s.body) ?? "").matchAll(/"(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
  return [...new Set([...scripts, ...preloads, ...boot])];
}

/**
 * The inline scripts of an HTML text, with their nonces.
 * @param {string} html
 * @returns {Array<{ nonce: string, body: string }>}
 */
export function inlineScripts(html) {
  // A minified script may hold a "<" (a comparison); it never holds "</script".
  return [...html.matchAll(/<script nonce="([^"]*)"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => ({ nonce: m[1], body: m[2] }));
}

/**
 * The boot script in an inline script's text (it follows the hydration data, whose
 * `window.__ASSETS__` names every chunk, in the same element), or null.
 * @param {string} body
 * @returns {string | null}
 */
export function bootScriptOf(body) {
  if (!body.includes('createElement("script")')) return null;
  // The boot script is the function after the assets (its own code has functions of this shape too).
  const assets = body.indexOf("window.__ASSETS__=");
  return body.slice(body.indexOf("(()=>{", assets < 0 ? 0 : assets));
}
