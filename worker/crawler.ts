const CRAWLER = /bot|crawl|spider|slurp|baidu|bingpreview|yandex|sogou|360spider|bytespider|facebookexternalhit|lighthouse/i;

/** Search-engine and link-preview crawlers get the fully rendered document. */
export function isCrawler(userAgent: string | null): boolean {
  return userAgent !== null && CRAWLER.test(userAgent);
}
