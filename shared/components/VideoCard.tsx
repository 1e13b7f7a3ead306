import { PageLink } from "./PageLink";
import { cardStatus, isSeriesCard } from "../catalogue/card";
import { formatRating, formatViews } from "../format";
import type { ReactNode } from "react";
import type { CardItem } from "../loaders";

/** Cover size: every cover is 16:9; width/height keep the layout still while it loads. */
export const COVER_WIDTH = 640;
export const COVER_HEIGHT = 360;
/** Shown instead of a cover that fails to load (spec §2). */
export const FALLBACK_COVER = "/fallback-cover.svg";

interface VideoCardProps {
  item: CardItem;
  layout?: "grid" | "list";
  /** The first cards of a page load eagerly (they are the largest paint). */
  eager?: boolean;
  /** Level of the title: 2 right under a page's h1, 3 under a section's h2 (headings go down one level at a time). */
  headingLevel?: 2 | 3;
  /** How the title is shown (search results mark the matched part); plain text by default. */
  renderTitle?: (item: CardItem, title: string) => ReactNode;
}

export function VideoCard({ item, layout = "grid", eager = false, headingLevel = 3, renderTitle }: VideoCardProps) {
  const video = item;
  const Title = headingLevel === 2 ? "h2" : "h3";
  const status = cardStatus(video);
  return (
    <article className={`video-card video-card-${layout}`}>
      <PageLink to={`/video/${video.id}`} className="video-card-link">
        <div className="video-card-cover">
          <img
            src={video.cover}
            data-fallback={FALLBACK_COVER}
            alt=""
            width={COVER_WIDTH}
            height={COVER_HEIGHT}
            loading={eager ? "eager" : "lazy"}
            decoding="async"
          />
          <span className="badge badge-free">免费观看</span>
          {status ? <span className="video-card-status">{status}</span> : null}
          <span className="video-card-duration">{video.duration}</span>
        </div>
        <div className="video-card-body">
          <Title className="video-card-title">{renderTitle ? renderTitle(item, video.title) : video.title}</Title>
          <p className="video-card-meta">
            {/* No aria-label: it is not allowed on a plain <span>; the star is read as "评分" instead. */}
            <span className="rating">
              <span aria-hidden="true">★ </span>
              <span className="visually-hidden">评分 </span>
              {formatRating(video.rating)}
            </span>
            <span>{video.year}</span>
            <span>{`${formatViews(item.views)}次播放`}</span>
            {item.comments ? <span className="video-card-comments">{`${formatViews(item.comments)}条评论`}</span> : null}
          </p>
          <p className="video-card-categories">
            {video.category.slice(0, 2).map((c) => (
              <span key={c} className="chip">
                {c}
              </span>
            ))}
          </p>
          <p className="video-card-description">{video.description}</p>
          <p className="video-card-tags">
            {video.tags.slice(0, 3).map((t) => (
              <span key={t} className="tag">
                {`#${t}`}
              </span>
            ))}
          </p>
        </div>
      </PageLink>
      {/* 更多 (稍后再看, 追剧): client/card-menu-opener.ts opens it, and a long press on the card. */}
      <button
        type="button"
        className="video-card-more"
        aria-label={`更多：${video.title}`}
        aria-haspopup="menu"
        aria-expanded="false"
        data-id={video.id}
        data-episodes={isSeriesCard(video) ? video.episodeCount : undefined}
      >
        ⋯
      </button>
    </article>
  );
}
