/**
 * The D1 query layer (worker/catalogue/) against the in-memory reference implementations the
 * unit tests check (tests/reference/listing.ts buildListing, tests/reference/search-engine.ts createSearchEngine), on a
 * generated catalogue of a few hundred titles imported into workerd's local D1: every case of
 * the table must give the same state, facets, totals, pages and ids, in the same order.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { Video } from "../../shared/catalogue/types";
import type { ListingSort } from "../../shared/listing";
import { buildListing, matchesCategory } from "../reference/listing";
import { createSearchEngine } from "../reference/search-engine";
import { toSimplified } from "../../shared/search/t2s";
import { importRows, type TitleRow } from "../../shared/catalogue/import-plan";
import { d1CatalogueDb } from "../../worker/catalogue/import-db";
import { queryListing } from "../../worker/catalogue/listing";
import { querySearch, querySuggest } from "../../worker/catalogue/search";
import { cardsByIds } from "../../worker/catalogue/titles";

const rows = JSON.parse(env.TEST_GENERATED_ROWS ?? "[]") as TitleRow[];
const entries = rows.map((r) => JSON.parse(r.entry) as Video);
const letters = new Map(rows.map((r) => [r.id, r.letter]));
/** Real plays for every seventh title (the 最热 sort), some equal to test the ties. */
const hits = new Map(entries.filter((_, i) => i % 7 === 0).map((v, i) => [v.id, (i * 37) % 50]));

beforeAll(async () => {
  const report = await importRows(d1CatalogueDb(env.DB), rows);
  // The setup imported the built-in catalogue: its 50 ids are rewritten, the rest added.
  expect(report).toMatchObject({ added: rows.length - 50, changed: 50, removed: 0 });
  await env.DB.batch([...hits].map(([id, total]) => env.DB.prepare("INSERT OR REPLACE INTO title_hits (title_id, total) VALUES (?, ?)").bind(id, total)));
});

const CATEGORIES: Array<string | null> = [null, "all", "电影", "电视剧", "综艺", "纪录片", "科幻", "剧", "网络剧"];
const QUERIES = [
  "",
  "page=2",
  "page=4",
  "page=999",
  "page=abc",
  "page=0",
  "sort=latest",
  "sort=hot",
  "sort=hot&page=2",
  "sort=rating",
  "sort=title",
  "sort=title&page=3",
  "sort=duration",
  "sort=evil",
  "year=2005",
  "year=1800",
  "year=20x5",
  "rating=7",
  "rating=8&sort=title",
  "rating=9&sort=duration",
  "rating=6",
  "genre=爱情",
  "genre=科幻&sort=rating",
  "genre=不存在",
  "genre=电影",
  "area=日本",
  "area=中国大陆&year=2010",
  "area=火星",
  "letter=A",
  "letter=z",
  "letter=%23",
  "letter=AB",
  "genre=悬疑&area=中国大陆&sort=hot&page=2",
  "genre=剧情&letter=S&rating=7&sort=title",
  "view=list&page=3",
];

describe("listings from D1 = the in-memory reference", () => {
  for (const category of CATEGORIES) {
    const source = category === null ? entries : entries.filter((v) => matchesCategory(v, category));
    for (const defaultSort of ["latest", "rating"] as ListingSort[]) {
      it(`${category ?? "(every title)"}, default sort ${defaultSort}: ${QUERIES.length} queries`, async () => {
        for (const query of QUERIES) {
          const params = new URLSearchParams(query);
          const expected = buildListing(source, params, defaultSort, { category, hits, letters });
          const { items, scopeTotal, ...actual } = await queryListing(env.DB, category, params, defaultSort);
          expect(actual, `${category} ?${query}`).toEqual(expected);
          expect(scopeTotal).toBe(source.length);
          expect(items.map((c) => c.id)).toEqual(expected.ids);
          for (const card of items) expect(card.views).toBe(hits.get(card.id) || card.views);
        }
      });
    }
  }

  it("a category no title has is empty (the loader turns it into a 404)", async () => {
    const page = await queryListing(env.DB, "加微信看全集", new URLSearchParams(), "latest");
    expect(page).toMatchObject({ scopeTotal: 0, total: 0, pageCount: 1, ids: [] });
  });
});

describe("search from D1 = the in-memory reference", () => {
  const keys = Object.fromEntries(rows.map((r) => [r.id, r.search_pinyin]));
  const namesPinyin = Object.fromEntries(rows.map((r) => [r.id, (JSON.parse(r.search_names) as Array<[string, string]>).map(([, p]) => p)]));
  const engine = createSearchEngine(entries, keys, toSimplified, namesPinyin);
  const first = entries[0];
  const actor = first.actors?.[0] ?? "";
  /** The pinyin of the first title's first name (director), written together: a tier-5 pinyin match. */
  const namePinyin = ((JSON.parse(rows[0].search_names) as Array<[string, string]>)[0]?.[1] ?? "").replaceAll(" ", "");
  /** Forms of a title's pinyin (narrowed through search_pinyin): initials, syllables cut short, syllables then a character. */
  const syllables = rows[7].search_pinyin.split(" ");
  const titleChars = [...rows[7].search_title];
  const initials = syllables.map((x) => x[0]).join("");
  const mixed = syllables.map((x, i) => (i % 2 === 0 ? x : x[0])).join("");
  const shortened = syllables.map((x) => x.slice(0, 2)).join("");
  const thenChar = syllables[0] + titleChars.slice(1).join("");
  const letterThenChar = syllables[0][0] + titleChars.slice(1, 3).join("");
  const fromSecond = syllables.slice(1).join("");
  const SEARCHES = [
    "爱",
    "春",
    "爱 春",
    "風",
    "戀愛",
    first.title,
    first.title.slice(1),
    "ch",
    "a",
    "x",
    "chun",
    "aiq",
    "ai春",
    "高分",
    "科幻",
    "中国",
    actor,
    "的",
    "一个",
    "zzzzqqqq",
    "  ",
    "",
    "ＷＧＬＸ",
    "「爱」！",
    "长".repeat(100),
    "4",
    "爱 2",
    "4k",
    "爱 a",
    "ai chun",
    namePinyin,
    initials,
    mixed,
    shortened,
    thenChar,
    letterThenChar,
    fromSecond,
    `${initials} ${titleChars[0]}`,
    "lv",
    "lu",
    "nv",
    "a x",
    "c h",
    `${initials.slice(0, 2)}`,
    `${initials[0]} 4`,
    "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz",
  ];
  const EXTRA = [
    "",
    "sort=rating",
    "sort=year",
    "sort=title",
    "page=2",
    "page=99",
    "category=科幻",
    "category=不存在&sort=rating",
    "category=科幻&page=2&sort=title",
  ];

  it(`${SEARCHES.length} queries × ${EXTRA.length} filters, sorts and pages`, async () => {
    for (const q of SEARCHES) {
      for (const extra of EXTRA) {
        const params = new URLSearchParams(extra);
        params.set("q", q);
        expect(await querySearch(env.DB, params), `q=${q}&${extra}`).toEqual(engine.run(params));
      }
    }
  });

  it("suggestions: the same titles, covers and marks", async () => {
    for (const q of ["爱", "ch", first.title, "zzzz", "", actor]) expect(await querySuggest(env.DB, q), q).toEqual(engine.suggest(q));
  });
});

describe("cards by id", () => {
  it("keep the order asked, leave out unknown ids, carry the card fields", async () => {
    const ids = [entries[5].id, "video_999999", entries[2].id, entries[5].id];
    const cards = await cardsByIds(env.DB, ids);
    expect(cards.map((c) => c.id)).toEqual([entries[5].id, entries[2].id]);
    expect(cards[0]).toMatchObject({ title: entries[5].title, year: entries[5].year, rating: entries[5].rating, cover: `/${entries[5].coverImage}` });
  });
});
