#!/usr/bin/env node
// @ts-check
/**
 * Every repository path that a source file or a doc names must exist, so that a comment or a doc
 * never points at a file that was moved or removed. `npm run check:paths`; one of the static checks
 * of `npm test` (scripts/test.mjs).
 *
 * A path is a word starting with one of the repository's folders (worker/, shared/, client/,
 * scripts/, tests/, docs/, migrations/, public/), not preceded by another path character (so
 * `../shared/x`, URLs and package names are not paths), and either ending in `/` (a folder) or
 * with a file extension. Globs and placeholders are skipped: a path followed by `*`, `{`, `$`, `…`
 * or `<`, and files named by a single capital letter (`N.mp4`). Read: the comments of the
 * TypeScript and JavaScript files (parsed with TypeScript, so strings such as a snapshot's own
 * file names are not read), the whole text of the styles, SQL and TOML files, under the folders
 * above and at the top level, and README.md and every Markdown file under docs/.
 *
 * `node scripts/check-paths.mjs [root]`: exits 1 listing each missing path with where it is named.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The repository's top-level folders whose paths are checked. */
export const PATH_ROOTS = ["worker", "shared", "client", "scripts", "tests", "docs", "migrations", "public"];

/** Files whose text is read: source, config, styles, SQL and Markdown. */
const READ = /\.(?:ts|tsx|mts|mjs|js|cjs|css|sql|toml|md)$/;
/** Files of which only the comments are read. */
const SCRIPT = /\.(?:ts|tsx|mts|mjs|js|cjs)$/;
/** Folders never read: dependencies, builds, tool state, and generated data (no prose in it). */
const SKIP_DIRS = new Set(["node_modules", "dist", "test-output", ".wrangler", ".git", "generated"]);

const PATH = new RegExp(`(?<![\\w./@~-])((?:${PATH_ROOTS.join("|")})/[\\w./-]*)`, "g");
/** What after a path makes it a glob or a placeholder. */
const PLACEHOLDER_NEXT = /^[*{$…<]/;

/**
 * The paths a text names, with their line numbers (1-based), as written (trailing sentence dots dropped).
 * @param {string} text
 * @returns {{ path: string, line: number }[]}
 */
export function pathsIn(text) {
  /** @type {{ path: string, line: number }[]} */
  const found = [];
  const lines = text.split("\n");
  lines.forEach((lineText, i) => {
    for (const match of lineText.matchAll(PATH)) {
      const next = lineText.slice((match.index ?? 0) + match[0].length);
      if (PLACEHOLDER_NEXT.test(next)) continue;
      const named = match[1].replace(/\.+$/, "");
      const last = named.split("/").pop() ?? "";
      const isFolder = named.endsWith("/");
      const hasExtension = /^[^.].*\.[A-Za-z0-9]+$/.test(last);
      if (!isFolder && !hasExtension) continue;
      if (/^[A-Z]\.[A-Za-z0-9]+$/.test(last)) continue;
      found.push({ path: named, line: i + 1 });
    }
  });
  return found;
}

/**
 * The files whose text is checked, relative to `root`.
 * @param {string} root
 * @returns {string[]}
 */
export function filesToRead(root) {
  /** @type {string[]} */
  const files = [];
  /** @param {string} dir relative to root ("" for the root itself) */
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (dir === "" && !PATH_ROOTS.includes(entry.name)) continue;
        if (SKIP_DIRS.has(entry.name) || entry.name.startsWith(".")) continue;
        walk(rel);
      } else if (entry.isFile() && READ.test(entry.name)) {
        if (dir.startsWith("docs") || dir === "" || !entry.name.endsWith(".md")) files.push(rel);
      }
    }
  };
  walk("");
  return files.sort();
}

/**
 * The comments of a TypeScript or JavaScript file, each in its place (everything else blanked, so
 * that line numbers stay), from TypeScript's parse: a `//` inside a string or a regular
 * expression is no comment.
 * @param {string} fileName
 * @param {string} text
 * @returns {string}
 */
export function commentsOf(fileName, text) {
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : fileName.endsWith(".ts") || fileName.endsWith(".mts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  /** @type {Map<number, number>} comment start → end */
  const ranges = new Map();
  /** @param {ts.CommentRange[] | undefined} found */
  const keep = (found) => {
    for (const range of found ?? []) ranges.set(range.pos, range.end);
  };
  /** @param {ts.Node} node */
  const visit = (node) => {
    keep(ts.getLeadingCommentRanges(text, node.getFullStart()));
    keep(ts.getTrailingCommentRanges(text, node.getEnd()));
    // Tokens are not children: a comment before a closing bracket hangs on the token.
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  const kept = text.replace(/[^\n]/g, " ").split("");
  for (const [start, end] of ranges) for (let i = start; i < end; i++) kept[i] = text[i];
  return kept.join("");
}

/**
 * Every named path under `root` that does not exist there.
 * @param {string} root
 * @returns {{ file: string, line: number, path: string }[]}
 */
export function stalePaths(root) {
  /** @type {{ file: string, line: number, path: string }[]} */
  const stale = [];
  for (const file of filesToRead(root)) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    for (const named of pathsIn(SCRIPT.test(file) ? commentsOf(file, text) : text)) {
      if (!fs.existsSync(path.join(root, named.path))) stale.push({ file, ...named });
    }
  }
  return stale;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));
  const stale = stalePaths(root);
  if (stale.length > 0) {
    for (const s of stale) console.error(`${s.file}:${s.line}: ${s.path} does not exist`);
    console.error(`check-paths: ${stale.length} named path${stale.length === 1 ? "" : "s"} missing (fix the reference, or the path)`);
    process.exit(1);
  }
  console.log("check-paths: every named path exists");
}
