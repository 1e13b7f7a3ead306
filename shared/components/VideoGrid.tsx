import type { ReactNode } from "react";
import type { CardItem } from "../loaders";
import { VideoCard } from "./VideoCard";

interface VideoGridProps {
  items: readonly CardItem[];
  /** "row": one row that scrolls sideways, for a list of any length (今日更新). */
  layout?: "grid" | "list" | "row";
  /** How many leading cards load their cover eagerly. */
  eagerCount?: number;
  /** Level of the card titles: 2 when the grid sits right under the page's h1. */
  headingLevel?: 2 | 3;
  /** How each card's title is shown (search results mark the matched part). */
  renderTitle?: (item: CardItem, title: string) => ReactNode;
}

/** Grid classes: a count that 3 divides may use 3 columns at middle widths and still fill every row (shared/components/VideoCard.css). */
function gridClass(count: number): string {
  return count % 3 === 0 ? "video-grid video-grid-thirds" : "video-grid";
}

export function VideoGrid({ items, layout = "grid", eagerCount = 0, headingLevel, renderTitle }: VideoGridProps) {
  return (
    <div className={layout === "list" ? "video-list" : layout === "row" ? "video-row" : gridClass(items.length)}>
      {items.map((item, index) => (
        <VideoCard
          key={item.id}
          item={item}
          layout={layout === "list" ? "list" : "grid"}
          eager={index < eagerCount}
          headingLevel={headingLevel}
          renderTitle={renderTitle}
        />
      ))}
    </div>
  );
}

/** Nothing matches the filters (spec §8). */
export function EmptyListing() {
  return (
    <div className="empty-state" role="status">
      <p className="empty-title">暂无符合条件的视频</p>
      <p className="empty-hint">请尝试调整筛选条件</p>
    </div>
  );
}
