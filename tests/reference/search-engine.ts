/**
 * The in-memory reference of search (tests only): an index of the whole catalogue ranked by
 * shared/search/rank.ts, filtered, sorted and paged as the /search page shows it. The site ranks in
 * SQL (worker/catalogue/search.ts); tests/worker/catalogue-queries.test.ts holds the two side by
 * side and tests/unit/search.test.ts pins the rules here.
 */
import { compareTitles } from "../../shared/collation";
import type { Video } from "../../shared/catalogue/types";
import { pageCount, pageSlice, parsePage } from "../../shared/pagination";
import { marksFor, type Mark } from "../../shared/search/highlight";
import { HOT_COUNT, titleNames, type RankedItem, type SearchItem } from "../../shared/search/index";
import { fold, foldText, normaliseQuery, queryTerms, type CharMap } from "../../shared/search/normalise";
import { isSearchSort, MAX_SUGGESTIONS, type SearchResult, type SearchSort, type SuggestResponse, type Suggestion } from "../../shared/search/query";
import { rankDocs, type NameField, type SearchDoc } from "../../shared/search/rank";

export function sortSearchResults<T extends SearchItem>(videos: readonly T[], sort: SearchSort): T[] {
  const copy = videos.slice();
  switch (sort) {
    case "relevance":
      return copy;
    case "rating":
      return copy.sort((a, b) => b.rating - a.rating);
    case "year":
      return copy.sort((a, b) => b.year - a.year);
    case "title":
      return copy.sort((a, b) => compareTitles(a.title, b.title));
  }
}

/** Categories present in the matches, most frequent first: the options of the category filter. */
export function resultCategories(videos: ReadonlyArray<Pick<SearchItem, "category">>): string[] {
  const counts = new Map<string, number>();
  for (const v of videos) for (const c of v.category) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || compareTitles(a[0], b[0])).map(([c]) => c);
}

/**
 * One page of search results from the ranked matches (best first, catalogue order on ties):
 * category filter, sort, page and marks. `recommended` gives 热门推荐 when nothing matched.
 */
export function searchResultPage(params: URLSearchParams, q: string, matches: readonly RankedItem[], recommended: () => string[]): SearchResult {
  const sortRaw = params.get("sort");
  const sort: SearchSort = isSearchSort(sortRaw) ? sortRaw : "relevance";
  const marks = new Map(matches.map((m) => [m.video.id, m.marks]));
  const matched = matches.map((m) => m.video);
  const categories = resultCategories(matched);
  const categoryRaw = params.get("category");
  const category = categoryRaw !== null && categories.includes(categoryRaw) ? categoryRaw : null;
  const filtered = category === null ? matched : matched.filter((v) => v.category.includes(category));
  const sorted = sortSearchResults(filtered, sort);
  const pages = pageCount(sorted.length);
  const page = parsePage(params.get("page"), pages);
  const ids = pageSlice(sorted, page).map((v) => v.id);
  const pageMarks: Record<string, Mark[]> = {};
  for (const id of ids) {
    const m = marks.get(id);
    if (m && m.length > 0) pageMarks[id] = m;
  }
  return {
    state: { q, category, sort, page },
    categories,
    total: sorted.length,
    pageCount: pages,
    ids,
    marks: pageMarks,
    recommended: q && sorted.length === 0 ? recommended() : [],
  };
}

/** Build-time pinyin of each title, by video id: syllables separated by spaces. */
export type PinyinKeys = Readonly<Record<string, string>>;

function nameField(text: string, pinyin: string | undefined, map?: CharMap): NameField {
  const folded = foldText(text, map);
  const syllables = pinyin ? pinyin.split(" ") : null;
  return { folded, syllables: syllables && syllables.length === folded.chars.length ? syllables : null };
}

/** One catalogue entry as the search sees it; `namesPinyin[i]` is the pinyin of `titleNames(video)[i]` when known. */
export function searchDoc(video: Video, pinyin: string | undefined, map?: CharMap, namesPinyin: readonly string[] = []): SearchDoc {
  return {
    id: video.id,
    title: nameField(video.title, pinyin, map),
    names: titleNames(video).map((n, i) => nameField(n, namesPinyin[i], map)),
    labels: [...video.tags, ...video.category].map((l) => fold(l, map)),
    description: fold(video.description, map),
  };
}

export interface SearchEngine {
  /** The /search page: ranked (or sorted), filtered by category, one page. */
  run(params: URLSearchParams): SearchResult;
  /** Up to 8 titles for the header box; 热门搜索 for an empty query. */
  suggest(raw: string | null): SuggestResponse;
  /** 热门推荐 / 热门搜索: the best-rated titles (catalogue order on ties). */
  hot(): Video[];
}

/**
 * A search engine over a catalogue. The index is built on first use (once per
 * isolate in the worker), never per request.
 */
export function createSearchEngine(
  catalogue: readonly Video[],
  keys: PinyinKeys,
  map?: CharMap,
  namesPinyin: Readonly<Record<string, readonly string[]>> = {},
): SearchEngine {
  let docs: SearchDoc[] | null = null;
  const index = () => (docs ??= catalogue.map((v) => searchDoc(v, keys[v.id], map, namesPinyin[v.id])));
  const byId = new Map(catalogue.map((v, i) => [v.id, i]));

  const ranked = (q: string) => {
    const all = index();
    return rankDocs(all, queryTerms(q, map)).map((r) => ({
      video: catalogue[byId.get(r.doc.id) as number],
      marks: marksFor(r.doc.title.folded, r.match.title),
    }));
  };

  const hot = () =>
    catalogue
      .slice()
      .sort((a, b) => b.rating - a.rating)
      .slice(0, HOT_COUNT);

  return {
    hot,
    run(params) {
      const q = normaliseQuery(params.get("q"));
      return searchResultPage(params, q, q ? ranked(q) : [], () => hot().map((v) => v.id));
    },
    suggest(raw) {
      const q = normaliseQuery(raw);
      if (!q) return { q, items: [], hot: hot().map((v) => v.title) };
      const items: Suggestion[] = ranked(q)
        .slice(0, MAX_SUGGESTIONS)
        .map(({ video, marks }) => ({
          id: video.id,
          title: video.title,
          cover: "/" + video.coverImage,
          year: video.year,
          category: video.category[0] ?? "",
          marks,
        }));
      return { q, items, hot: [] };
    },
  };
}
