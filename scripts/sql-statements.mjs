// @ts-check
/** The statements of a migration file (scripts/prepare-local.mjs applies them one by one). */

/**
 * Splits a migration file into statements: on semicolons outside quoted strings and outside
 * `--` comments (a comment may hold a semicolon).
 * @param {string} sql
 * @returns {string[]}
 */
export function statements(sql) {
  /** @type {string[]} */
  const out = [];
  let current = "";
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end - 1;
      continue;
    }
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      const stop = end < 0 ? sql.length : end + 1;
      current += sql.slice(i, stop);
      i = stop - 1;
      continue;
    }
    if (c === ";") {
      out.push(current);
      current = "";
      continue;
    }
    current += c;
  }
  out.push(current);
  return out.map((s) => s.trim()).filter(Boolean);
}
