// @ts-check
/** JSON for the scripts: parsed text is `unknown` until the caller says what it holds. */

/**
 * @param {string} text
 * @returns {unknown}
 */
export function parseJson(text) {
  return JSON.parse(text);
}
