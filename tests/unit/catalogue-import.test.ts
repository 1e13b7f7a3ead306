import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { videos } from "../../shared/catalogue/index";
import { compareTitles } from "../../shared/collation";
import { generateCatalogue } from "../../scripts/catalogue/generate";
import { inlineStatement, sqlLiteral } from "../../scripts/catalogue/import";
import { planImport } from "../../scripts/catalogue/import-plan";
import { pinyinLetter } from "../../scripts/catalogue/pinyin";
import { titleRows } from "../../scripts/catalogue/rows";
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
  const existing = (list = rows) => list.map((r) => ({ id: r.id, content_hash: r.content_hash, position: r.position, title_order: r.title_order }));
  it("a first import adds every title", () => {
    expect(planImport(rows, [], 1).report).toEqual({ added: 5, changed: 0, moved: 0, removed: 0, unchanged: 0 });
  });
  it("re-importing the same file writes nothing", () => {
    const plan = planImport(rows, existing(), 2);
    expect(plan.report).toEqual({ added: 0, changed: 0, moved: 0, removed: 0, unchanged: 5 });
    expect(plan.statements).toEqual([]);
  });
  it("a changed entry is rewritten with a new update time; a removed one is deleted", () => {
    const changed = titleRows([{ ...videos[0], rating: 1.5 }, ...videos.slice(1, 4)]);
    const plan = planImport(changed, existing(), 3);
    expect(plan.report).toEqual({ added: 0, changed: 1, moved: 0, removed: 1, unchanged: 3 });
    const update = plan.statements.find((s) => s.sql.startsWith("UPDATE titles SET"));
    expect(update?.params).toContain(3);
    expect(plan.statements.some((s) => s.sql.startsWith("DELETE FROM titles WHERE id IN") && s.params.includes(videos[4].id))).toBe(true);
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
  it("no worker, client or shared module imports shared/catalogue/index.ts (videos, getVideo) or the file itself", () => {
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
