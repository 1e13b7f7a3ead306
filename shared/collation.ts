/**
 * Ordering of Chinese titles and names (the "title" sorts of listings and search, the category
 * filter's ties): ICU's collation for Simplified Chinese as used in mainland China (pinyin order),
 * the same in the worker and the browser.
 */
const collator = new Intl.Collator("zh-Hans-CN");

/** Compares two titles or names for sorting: negative, zero or positive. */
export function compareTitles(a: string, b: string): number {
  return collator.compare(a, b);
}
