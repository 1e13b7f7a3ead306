import { lazy, memo, Suspense } from "react";
import type { RatingPanel as RatingPanelComponent, RatingPanelProps } from "./RatingPanel";

type Panel = typeof RatingPanelComponent;

/**
 * 评分 (RatingPanel.tsx) as a lazy island, so that its code is not among the video page's scripts
 * before it is interactive (the page's JavaScript budget, docs/performance.md): the server renders
 * the panel in place (the averages and the distribution need no JavaScript); in the browser React
 * keeps that HTML until the panel's chunk — requested as the page hydrates — is there. Memoised
 * with plain props, so that no re-render of the page reaches the boundary while it waits.
 */
const serverPanel: Panel | null = typeof document !== "undefined" ? null : (await import("./RatingPanel")).RatingPanel;

const LazyPanel = lazy(async (): Promise<{ default: Panel }> => ({ default: (await import("./RatingPanel")).RatingPanel }));

export const RatingIsland = memo(function RatingIsland(props: RatingPanelProps) {
  const Panel = serverPanel ?? LazyPanel;
  return (
    <Suspense fallback={<section className="rating-panel" aria-busy="true" aria-label="评分" />}>
      <Panel {...props} />
    </Suspense>
  );
});
