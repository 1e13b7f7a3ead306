/** Listing and search page size (spec §9). */
export const PAGE_SIZE = 12;
/** How many page numbers the pager shows around the current page (spec §9). */
export const PAGE_WINDOW = 5;

export function pageCount(total: number, pageSize = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The items of one page (1-based). */
export function pageSlice<T>(items: readonly T[], page: number, pageSize = PAGE_SIZE): T[] {
  const start = (page - 1) * pageSize;
  return items.slice(start, start + pageSize);
}

/**
 * Up to PAGE_WINDOW consecutive page numbers around `current`, shifted at the
 * edges so that the window stays full when there are enough pages.
 */
export function pageWindow(current: number, total: number, size = PAGE_WINDOW): number[] {
  const count = Math.min(size, total);
  let start = Math.max(1, current - Math.floor(size / 2));
  start = Math.min(start, total - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}

/**
 * A page number from the URL: a plain positive integer within 1..lastPage,
 * anything else (abc, 0, -1, 1.5, 999 beyond the last page) falls back to 1.
 */
export function parsePage(raw: string | null, lastPage: number): number {
  if (raw === null || !/^[1-9][0-9]{0,8}$/.test(raw)) return 1;
  const page = Number(raw);
  return page <= lastPage ? page : 1;
}
