/**
 * 评分: viewers' own ratings of a title (docs/decisions/0115-viewer-ratings.md). A score is a whole
 * number from 1 to 10, shown as Douban shows it: five stars with halves (10 points = 5 stars).
 * Pure rules shared by the worker (worker/ratings/) and the page (shared/components/RatingPanel.tsx).
 */

/** Below this many ratings the catalogue's own rating stays the title's rating (sorting, cards, provide API). */
export const RATING_MIN_COUNT = 10;

/** The star rows of the distribution: 5 stars first, as Douban lists them. */
export const STAR_ROWS = [5, 4, 3, 2, 1] as const;

/** What the page shows of the viewers' ratings of a title. */
export interface RatingSummary {
  /** Number of ratings. */
  count: number;
  /** The average score (0–10, one decimal), null without any rating. */
  average: number | null;
  /** Ratings per number of stars: index 0 = 1 star (score 1–2) … index 4 = 5 stars (score 9–10). */
  stars: [number, number, number, number, number];
}

export const NO_RATINGS: RatingSummary = { count: 0, average: null, stars: [0, 0, 0, 0, 0] };

/** Whether `value` is a score a viewer may give: a whole number from 1 to 10. */
export function isRatingScore(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 10;
}

/** The star row (1–5) a score counts in: 1–2 → 1 star … 9–10 → 5 stars. */
export function starRowOf(score: number): number {
  return Math.ceil(score / 2);
}

/** The average of `count` scores adding up to `sum`, rounded to one decimal (null for none). */
export function averageOf(sum: number, count: number): number | null {
  return count > 0 ? Math.round((sum / count) * 10) / 10 : null;
}

/** The summary of stored totals (the row of title_rating_totals, migrations/0024_ratings.sql). */
export function summaryOf(
  totals: { count: number; sum: number; s1: number; s2: number; s3: number; s4: number; s5: number } | null | undefined,
): RatingSummary {
  if (!totals || totals.count <= 0) return NO_RATINGS;
  return { count: totals.count, average: averageOf(totals.sum, totals.count), stars: [totals.s1, totals.s2, totals.s3, totals.s4, totals.s5] };
}

/** The viewers' average where enough viewers rated (RATING_MIN_COUNT), else null: the catalogue's rating stays. */
export function viewerScore(summary: RatingSummary): number | null {
  return summary.count >= RATING_MIN_COUNT ? summary.average : null;
}

/** Douban's word for a score: 1–2 很差, 3–4 较差, 5–6 还行, 7–8 推荐, 9–10 力荐. */
export function scoreWord(score: number): string {
  return ["很差", "较差", "还行", "推荐", "力荐"][starRowOf(score) - 1] ?? "";
}

/** Stars of a score or average, in halves: 7 → 3.5, 8.3 → 4 (rounded to the nearest half star). */
export function starsOf(score: number): number {
  return Math.round(score) / 2;
}

/** A score as the widget names it: "4.5星 推荐". */
export function scoreLabel(score: number): string {
  return `${starsOf(score)}星 ${scoreWord(score)}`;
}

/** The share of each star row in whole percent (0 without ratings), 5 stars first as STAR_ROWS. */
export function starShares(summary: RatingSummary): number[] {
  return STAR_ROWS.map((row) => (summary.count > 0 ? Math.round((summary.stars[row - 1] / summary.count) * 100) : 0));
}
