import { lazy, memo, Suspense, useEffect } from "react";
import { holdUntilIslandHydrates } from "../player/island-hydration";
import type { RatingPanel as RatingPanelComponent, RatingPanelProps } from "./RatingPanel";

type Panel = typeof RatingPanelComponent;

const inBrowser = typeof document !== "undefined";

/**
 * 评分 (RatingPanel.tsx) as a lazy island, so that its code is not among the video page's scripts
 * before it is interactive (the page's JavaScript budget, docs/performance.md): the server renders
 * the panel in place (the averages and the distribution need no JavaScript); in the browser React
 * keeps that HTML until the panel's chunk — requested as the page hydrates — is there. Memoised
 * with plain props, so that no re-render of the page reaches the boundary while it waits; and the
 * page's own updates after hydration (a context change reaches every boundary still waiting) wait
 * for it as they wait for the player (shared/player/island-hydration.ts) — else React throws the
 * server's panel away and shows the empty fallback until the chunk is there, and everything under
 * it jumps up by the panel's height.
 */
const serverPanel: Panel | null = inBrowser ? null : (await import("./RatingPanel")).RatingPanel;

/** The panel's chunk did not load (network): a line that says so, in the panel's place. */
function PanelUnavailable() {
  return (
    <section className="rating-panel" aria-label="评分">
      <p role="alert">评分加载失败，请刷新页面重试</p>
    </section>
  );
}

const LazyPanel = lazy(async (): Promise<{ default: Panel }> => {
  try {
    return { default: (await import("./RatingPanel")).RatingPanel };
  } catch (error) {
    console.error("评分加载失败", error);
    return { default: PanelUnavailable };
  }
});

// Only where the server's panel is in the document (its first page): a module run for a later page holds nothing.
const releaseHydrationHold = inBrowser && document.querySelector("section.rating-panel") ? holdUntilIslandHydrates() : () => {};

/** Rendered with the panel inside its boundary: its effect runs once the panel has hydrated. */
function PanelMounted() {
  useEffect(() => releaseHydrationHold(), []);
  return null;
}

export const RatingIsland = memo(function RatingIsland(props: RatingPanelProps) {
  const Panel = serverPanel ?? LazyPanel;
  // Leaving the page before the panel hydrated must not keep the page's updates waiting.
  useEffect(() => releaseHydrationHold, []);
  return (
    <Suspense fallback={<section className="rating-panel" aria-busy="true" aria-label="评分" />}>
      <Panel {...props} />
      <PanelMounted />
    </Suspense>
  );
});
