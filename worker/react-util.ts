/**
 * The `util` module of the worker bundle (wrangler.toml `[alias]`, vitest.config.ts): Node's,
 * except that `TextEncoder` encodes short strings in JavaScript (worker/utf8-encode.ts). The one
 * importer of "util" in the worker is React's streaming server renderer (react-dom/server.node),
 * which takes only `TextEncoder` from it, to encode each piece of the page's HTML.
 */
import nodeUtil from "node:util";
import { ShortStringTextEncoder } from "./utf8-encode";

export * from "node:util";
export const TextEncoder = ShortStringTextEncoder;
export default { ...nodeUtil, TextEncoder: ShortStringTextEncoder };
