/**
 * A feed source over titles held in memory (tests only): the same answers as the D1 source
 * (worker/feeds/d1-source.ts), for a test's own fixture titles.
 */
import { FEED_CATEGORIES } from "../../worker/feeds/categories";
import { matchesFilters, type FeedCategory, type FeedSource, type FeedTitle } from "../../worker/feeds/source";

/** A source over a list of titles held in memory, newest update first. */
export function memorySource(titles: readonly FeedTitle[], categories: readonly FeedCategory[] = FEED_CATEGORIES): FeedSource {
  const ordered = titles.slice().sort((a, b) => b.updatedAt - a.updatedAt || (a.video.id < b.video.id ? 1 : -1));
  const parents = new Map(categories.map((c) => [c.id, c.pid]));
  return {
    titles(query) {
      // Keywords are the site search's, which runs in D1 (worker/catalogue/search.ts): no second matcher here.
      if (query.keyword) return Promise.reject(new Error("memorySource: keyword queries need the D1 source"));
      const matching = ordered.filter((title) => matchesFilters(title, query, parents));
      return Promise.resolve({ total: matching.length, items: matching.slice(query.offset, query.offset + query.limit) });
    },
    byIds(ids) {
      const wanted = new Set(ids);
      return Promise.resolve(ordered.filter((title) => wanted.has(title.video.id)));
    },
    categories() {
      return Promise.resolve(categories);
    },
  };
}
