// scripts/check-paths.mjs: a comment or doc naming a repository path that does not exist fails
// `npm test`; globs, placeholders, strings and paths that exist pass.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pathsIn, stalePaths } from "../../scripts/check-paths.mjs";

const script = path.resolve(import.meta.dirname, "../../scripts/check-paths.mjs");
const dirs: string[] = [];

/** A temporary repository holding `files` (path → text). */
function repo(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "check-paths-"));
  dirs.push(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

const run = (root: string) => spawnSync(process.execPath, [script, root], { encoding: "utf8" });

// Built from parts, so that this file names no missing path itself.
const gone = ["worker", "feeds", "routes.ts"].join("/");

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("check-paths", () => {
  it("fails on a comment naming a file that does not exist, and says where", () => {
    const root = repo({ "worker/seo.ts": `/**\n * Served by ${gone}.\n */\nexport const x = 1;\n`, "docs/ARCHITECTURE.md": "See `worker/seo.ts`.\n" });
    expect(stalePaths(root)).toEqual([{ file: "worker/seo.ts", line: 2, path: gone }]);
    const result = run(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`worker/seo.ts:2: ${gone} does not exist`);
  });

  it("fails on a doc naming a missing file or folder", () => {
    const root = repo({ "README.md": `Read ${gone} and shared/nothing/.\n`, "worker/index.ts": "export {};\n" });
    expect(stalePaths(root).map((s) => s.path)).toEqual([gone, "shared/nothing/"]);
    expect(run(root).status).toBe(1);
  });

  it("passes when every named path exists; strings, globs and placeholders are not paths", () => {
    const root = repo({
      [gone]: "export {};\n",
      "worker/seo.ts": [
        `// Served by ${gone}.`,
        "// The tests: tests/**/*.test.ts, media public/N.mp4, stream/{n}/, tests/e2e/… and worker/<name>.ts.",
        'const snapshot = "worker/index.js"; // a file of a generated folder, in a string',
        "const url = 'https://example.com/shared/x.ts';",
        "export { snapshot, url };",
      ].join("\n"),
      "docs/notes.md": "`worker/` holds the worker; `../shared/x.ts` is relative. The end is worker/seo.ts.\n",
    });
    expect(stalePaths(root)).toEqual([]);
    const result = run(root);
    expect(result.status, result.stderr).toBe(0);
  });

  it("reads paths as written: trailing sentence dots dropped, line numbers kept", () => {
    expect(pathsIn("a\nsee worker/config.ts.\nand docs/")).toEqual([
      { path: "worker/config.ts", line: 2 },
      { path: "docs/", line: 3 },
    ]);
  });
});
