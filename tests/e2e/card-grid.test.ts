import { describe, expect, it } from "vitest";
import { baseURL, browserForFile, newPage, screenshot, waitForHydration } from "./browser";

/**
 * Card grids fill their rows (shared/components/VideoCard.css, shared/components/VideoGrid.tsx): 4 columns on
 * desktop, 2 on phones, and in between 3 for a count that 3 divides, 4 otherwise — so the home
 * page's 8 / 12 / 8 cards and a listing page's 12 never leave a short last row.
 */

const browser = browserForFile();

/** Columns a grid of `count` cards should have at `width` px. */
function expectedColumns(width: number, count: number): number {
  if (width < 720) return 2;
  if (width < 1024) return count % 3 === 0 ? 3 : 4;
  return 4;
}

describe("card grids fill their rows", () => {
  for (const path of ["/", "/category/all"]) {
    for (const width of [390, 800, 1280, 1440]) {
      it(`${path} at ${width} px`, async () => {
        const context = await browser().newContext({ viewport: { width, height: 900 }, locale: "zh-CN" });
        const { page, log } = await newPage(context);
        await page.goto(baseURL() + path);
        await waitForHydration(page);
        const grids = await page.locator(".video-grid").evaluateAll((elements) =>
          elements.map((grid) => {
            const rows = new Map<number, number>();
            for (const card of grid.children) {
              const top = Math.round(card.getBoundingClientRect().top);
              rows.set(top, (rows.get(top) ?? 0) + 1);
            }
            return { count: grid.children.length, columns: getComputedStyle(grid).gridTemplateColumns.split(" ").length, rows: [...rows.values()] };
          }),
        );
        expect(grids.length).toBeGreaterThan(0);
        for (const grid of grids) {
          const columns = expectedColumns(width, grid.count);
          expect(grid.columns, `${grid.count} cards`).toBe(columns);
          expect(grid.rows, `${grid.count} cards in rows of ${columns}`).toEqual(Array<number>(grid.count / columns).fill(columns));
        }
        if (path === "/") await screenshot(page, `card-grid-home-${width}`);
        expect(log.errors).toEqual([]);
        await context.close();
      });
    }
  }
});
