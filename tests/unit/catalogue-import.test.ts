import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { videos } from "../../scripts/catalogue/titles";
import { compareTitles } from "../../shared/collation";
import { generateCatalogue } from "../../scripts/catalogue/generate";
import { inlineStatement, sqlFile, sqlLiteral } from "../../scripts/catalogue/import";
import { planImport, SEARCH_VERSION } from "../../shared/catalogue/import-plan";
import { pinyinLetter } from "../../shared/catalogue/pinyin";
import { searchChars, searchPinyinKeys, titleRows } from "../../shared/catalogue/rows";
import { statements as migrationStatements } from "../../scripts/sql-statements.mjs";
import { validateCatalogue } from "../../shared/catalogue/schema";

describe("pinyin first letter (the 字母 facet)", () => {
  it.each([
    ["雾港来信", "W"],
    ["重庆行长", "C"], // word-level reading: chong, not zhong
    ["银河护卫队·重生", "Y"],
    ["长安十二时辰", "C"],
    ["爱在黎明破晓前", "A"],
    ["Space旅人", "S"],
    ["ｅ时代", "E"],
    ["「星海」拾光", "X"],
    ["1917", "#"],
    ["", "#"],
  ])("%s → %s", (title, letter) => {
    expect(pinyinLetter(title)).toBe(letter);
  });
  it("every built-in title has a letter A–Z or #", () => {
    for (const row of titleRows(videos)) expect(row.letter).toMatch(/^[A-Z#]$/);
  });
});

describe("catalogue rows", () => {
  const rows = titleRows(videos);
  it("title order follows the pinyin collation of the titles", () => {
    const byOrder = [...rows].sort((a, b) => a.title_order - b.title_order || a.position - b.position).map((r) => r.title);
    expect(byOrder).toEqual([...videos.map((v) => v.title)].sort(compareTitles));
  });
  it("search keys are folded (traditional → simplified) with one pinyin syllable per character", () => {
    const row = titleRows([{ ...videos[0], title: "霧港來信", actors: ["魏承澤"] }])[0];
    expect(row.search_title).toBe("雾港来信");
    expect(row.search_pinyin).toBe("wu gang lai xin");
    expect(row.search_pinyin_flat).toBe("wuganglaixin");
    expect(JSON.parse(row.search_names)).toContainEqual(["魏承泽", "wei cheng ze"]);
  });
  it("episodes and categories become their own rows", () => {
    const series = videos.find((v) => v.episodes && v.episodes.length > 2);
    expect(series).toBeDefined();
    const row = rows.find((r) => r.id === series?.id);
    expect(row?.episodes).toHaveLength(series?.episodes?.length ?? 0);
    expect(row?.episode_count).toBe(series?.episodes?.length);
    expect(row?.categories).toEqual(series?.category);
  });
});

describe("import plan", () => {
  const rows = titleRows(videos.slice(0, 5));
  const existing = (list = rows) =>
    list.map((r) => ({ id: r.id, content_hash: r.content_hash, position: r.position, title_order: r.title_order, search_version: SEARCH_VERSION }));
  it("a first import adds every title", () => {
    expect(planImport(rows, [], 1).report).toEqual({ added: 5, changed: 0, moved: 0, removed: 0, unchanged: 0, rekeyed: 0 });
  });
  it("re-importing the same file writes nothing", () => {
    const plan = planImport(rows, existing(), 2);
    expect(plan.report).toEqual({ added: 0, changed: 0, moved: 0, removed: 0, unchanged: 5, rekeyed: 0 });
    expect(plan.statements).toEqual([]);
  });
  it("a changed entry is rewritten with a new update time; a removed one is deleted", () => {
    const changed = titleRows([{ ...videos[0], rating: 1.5 }, ...videos.slice(1, 4)]);
    const plan = planImport(changed, existing(), 3);
    expect(plan.report).toEqual({ added: 0, changed: 1, moved: 0, removed: 1, unchanged: 3, rekeyed: 0 });
    const update = plan.statements.find((s) => s.sql.startsWith("UPDATE catalogue_titles SET"));
    expect(update?.params).toContain(3);
    expect(plan.statements.some((s) => s.sql.startsWith("DELETE FROM catalogue_titles WHERE id IN") && s.params.includes(videos[4].id))).toBe(true);
  });
  it("titles imported before the search keys existed get them, and nothing else", () => {
    const plan = planImport(
      rows,
      existing().map((r, i) => (i < 2 ? { ...r, search_version: 0 } : r)),
      4,
    );
    expect(plan.report).toEqual({ added: 0, changed: 0, moved: 0, removed: 0, unchanged: 5, rekeyed: 2 });
    const heads = plan.statements.map((s) => s.sql.slice(0, 40));
    const charInserts = heads.filter((h) => h.startsWith("INSERT INTO search_chars ")).length;
    const pinyinInserts = heads.filter((h) => h.startsWith("INSERT INTO search_pinyin ")).length;
    expect(charInserts).toBeGreaterThan(0);
    expect(pinyinInserts).toBeGreaterThan(0);
    expect(heads).toEqual(
      [
        "DELETE FROM search_chars WHERE title_id IN",
        "DELETE FROM search_pinyin WHERE title_id IN",
        ...Array.from({ length: charInserts }, () => "INSERT INTO search_chars (char, title_id, t"),
        ...Array.from({ length: pinyinInserts }, () => "INSERT INTO search_pinyin (key, title_id) V"),
        "UPDATE catalogue_titles SET search_version = ? WHERE id IN ",
      ].map((s) => s.slice(0, 40)),
    );
    expect(plan.statements.some((s) => s.sql.includes("updated_at"))).toBe(false);
  });
  it("new titles go in multi-row INSERTs", () => {
    const many = titleRows(generateCatalogue(40));
    const inserts = planImport(many, [], 1).statements.filter((s) => s.sql.startsWith("INSERT OR REPLACE INTO catalogue_titles"));
    expect(inserts).toHaveLength(14); // 26 columns: 3 rows under 100 parameters
  });
  it("statements bind at most 100 parameters (D1's limit)", () => {
    const many = titleRows(generateCatalogue(120));
    for (const s of planImport(many, [], 1).statements) expect(s.params.length).toBeLessThanOrEqual(100);
  });
  it("the remote import writes parameters as SQL literals", () => {
    expect(sqlLiteral("It's")).toBe("'It''s'");
    expect(sqlLiteral(null)).toBe("NULL");
    expect(sqlLiteral(8.5)).toBe("8.5");
    expect(inlineStatement({ sql: "UPDATE t SET a = ?, b = ? WHERE id = ?", params: ["x'y", 2, null] })).toBe(
      "UPDATE t SET a = 'x''y', b = 2 WHERE id = NULL;",
    );
  });
});

describe("search_chars rows", () => {
  it("hold each character once with its best tier", () => {
    const chars = new Map(searchChars("雾港来信", ["魏承泽"], ["悬疑", "电影"], "雾中来信的邮差"));
    expect(chars.get("雾")).toBe(1);
    expect(chars.get("港")).toBe(2);
    expect(chars.get("魏")).toBe(5);
    expect(chars.get("悬")).toBe(6);
    expect(chars.get("邮")).toBe(7);
    expect(chars.get("中")).toBe(7);
    expect(new Map(searchChars("爱", [], [], "爱")).get("爱")).toBe(0);
    expect(chars.size).toBe(new Set("雾港来信魏承泽悬疑电影雾中来信的邮差").size);
  });
});

describe("search_pinyin keys", () => {
  it("cover the title (3 from its start, 4 inside) and every name (5), each key once with its best tier", () => {
    const keys = new Map(
      searchPinyinKeys(
        "雾港",
        ["wu", "gang"],
        [
          ["林默", "lin mo"],
          ["gala", "g a l a"],
        ],
      ),
    );
    expect(Object.fromEntries(keys)).toEqual({ wu: 3, wg: 3, ga: 4, g: 4, li: 5, lm: 5, mo: 5, m: 5, al: 5, la: 5, a: 5 });
  });
});

describe("the SQL file of a large or remote import", () => {
  it("merges consecutive INSERTs into the same table into one statement, literals inlined", () => {
    const sql = sqlFile([
      { sql: "DELETE FROM x WHERE id IN (?)", params: ["a"] },
      { sql: "INSERT INTO x (a, b) VALUES (?, ?), (?, ?)", params: [1, "o'k", 2, null] },
      { sql: "INSERT INTO x (a, b) VALUES (?, ?)", params: [3, "z"] },
      { sql: "INSERT INTO y (a) VALUES (?)", params: [4] },
    ]);
    expect(sql).toBe("DELETE FROM x WHERE id IN ('a');\nINSERT INTO x (a, b) VALUES (1, 'o''k'), (2, NULL), (3, 'z');\nINSERT INTO y (a) VALUES (4);\n");
  });
  it("keeps every statement under D1's 100,000 bytes", () => {
    const sql = sqlFile(planImport(titleRows(generateCatalogue(300)), [], 1).statements);
    for (const statement of sql.split(";\n")) expect(new TextEncoder().encode(statement).length).toBeLessThan(100_000);
    expect(sql.split(";\n").filter((s) => s.startsWith("INSERT OR REPLACE INTO catalogue_titles")).length).toBeLessThan(20);
  });
});

describe("migration files split into statements", () => {
  it("ignore semicolons in comments and strings", () => {
    expect(migrationStatements("-- a; b\nCREATE TABLE a (x TEXT DEFAULT 'p;q'); -- c; d\nSELECT 1;\n")).toEqual([
      "CREATE TABLE a (x TEXT DEFAULT 'p;q')",
      "SELECT 1",
    ]);
  });
});

describe("generated catalogue (tests and bench)", () => {
  it("is valid, with unrepeated titles and descriptions of 50–80 characters", () => {
    const list = generateCatalogue(2000);
    expect(validateCatalogue(list).ok).toBe(true);
    expect(new Set(list.map((v) => v.title)).size).toBe(2000);
    expect(new Set(list.map((v) => v.description)).size).toBe(2000);
    for (const v of list) expect([...v.description].length).toBeGreaterThanOrEqual(50);
    for (const v of list) expect([...v.description].length).toBeLessThanOrEqual(80);
  });
});

describe("the catalogue stays out of both bundles", () => {
  it("no worker, client or shared module imports scripts/catalogue/titles.ts (videos, getVideo) or the file itself", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const offenders: string[] = [];
    for (const dir of ["worker", "client", "shared"]) {
      for (const entry of fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        if (path.relative(root, file) === path.join("shared", "catalogue", "index.ts")) continue;
        const source = fs.readFileSync(file, "utf8");
        if (/from\s+"[./]*(?:shared\/)?catalogue(?:\/index)?"|catalogue\/index"|titles\.json"/.test(source)) offenders.push(path.relative(root, file));
      }
    }
    expect(offenders).toEqual([]);
  });
});
