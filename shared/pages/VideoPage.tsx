import { Link, useLoaderData } from "react-router";
import { getVideo } from "../catalogue/index";
import type { Video } from "../catalogue/types";
import { PageMeta } from "../components/PageMeta";
import { VideoGrid } from "../components/VideoGrid";
import { formatRating, formatViews, isoDuration } from "../format";
import { serializeForScript } from "../hydration";
import { SIDEBAR_RELATED_COUNT, type VideoData } from "../loaders";
import { useRootData } from "../root-data";
import type { SiteConfig } from "../site-config";
import { COVER_HEIGHT, COVER_WIDTH } from "../components/VideoCard";
import { VideoActions } from "../components/VideoActions";
import { VideoPlayer } from "../player/VideoPlayer";

/** schema.org VideoObject with absolute URLs (spec §9, structured data). */
export function videoStructuredData(video: Video, data: VideoData, config: SiteConfig) {
  return {
    "@context": "https://schema.org",
    "@type": "VideoObject",
    name: video.title,
    description: video.description,
    thumbnailUrl: [`${config.origin}/${video.coverImage}`],
    uploadDate: `${video.year}-01-01`,
    duration: isoDuration(video.duration),
    contentUrl: config.origin + video.videoFile,
    embedUrl: `${config.origin}/video/${video.id}`,
    inLanguage: "zh-CN",
    genre: video.category,
    keywords: video.tags.join(","),
    aggregateRating: {
      "@type": "AggregateRating",
      ratingValue: video.rating,
      bestRating: 10,
      worstRating: 0,
      ratingCount: data.ratingCount,
    },
  };
}

export function VideoPage() {
  const data = useLoaderData<VideoData>();
  const { config } = useRootData();
  const video = getVideo(data.id) as Video;
  const sidebar = data.related.slice(0, SIDEBAR_RELATED_COUNT);
  const more = data.related.slice(SIDEBAR_RELATED_COUNT);
  const pageUrl = `${config.origin}/video/${video.id}`;
  return (
    <>
      <PageMeta title={video.title} description={video.description} path={`/video/${video.id}`} image={`/${video.coverImage}`} type="video.movie" />
      <meta property="og:video" content={config.origin + video.videoFile} />
      <meta property="og:video:type" content="video/mp4" />
      <meta property="og:video:width" content={String(COVER_WIDTH)} />
      <meta property="og:video:height" content={String(COVER_HEIGHT)} />
      <meta name="twitter:card" content="player" />
      <meta name="twitter:title" content={video.title} />
      <meta name="twitter:description" content={video.description} />
      <meta name="twitter:image" content={`${config.origin}/${video.coverImage}`} />
      <meta name="twitter:player" content={pageUrl} />
      <meta name="twitter:player:width" content={String(COVER_WIDTH)} />
      <meta name="twitter:player:height" content={String(COVER_HEIGHT)} />
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeForScript(videoStructuredData(video, data, config)) }} />

      <div className="video-layout">
        <div className="video-main">
          <VideoPlayer key={video.id} video={video} />
          {/* The 弹幕 bar (shared/player/danmaku/Danmaku.tsx) is portalled here after hydration. */}
          <div id="danmaku-bar" className="danmaku-bar-slot" />
          <div className="video-info">
            <h1 className="video-title">{video.title}</h1>
            <p className="video-meta">
              <span>{video.year}</span>
              <span>{video.duration}</span>
              <span className="rating">★ {formatRating(video.rating)}</span>
              <span>{formatViews(data.views)}次播放</span>
              <span className="badge badge-free">免费观看</span>
            </p>
            <VideoActions video={video} />
            <p className="video-categories">
              {video.category.map((c) => (
                <Link key={c} to={`/category/${c}`} className="chip chip-link">
                  {c}
                </Link>
              ))}
            </p>
            <p className="video-tags">
              {video.tags.map((t) => (
                <span key={t} className="tag">
                  #{t}
                </span>
              ))}
            </p>
            <h2 className="video-subtitle">剧情简介</h2>
            <p className="video-description">{video.description}</p>
          </div>
        </div>
        <aside className="video-sidebar" aria-labelledby="related-title">
          <h2 id="related-title" className="section-title">
            相关推荐
          </h2>
          {sidebar.length > 0 ? <VideoGrid items={sidebar} layout="list" /> : <p className="muted">暂无相关推荐</p>}
          <div className="contact-box">
            <h2 className="contact-box-title">商务合作</h2>
            <p>{config.businessContact}</p>
          </div>
        </aside>
      </div>
      {more.length > 0 ? (
        <section className="home-section" aria-labelledby="more-title">
          <h2 id="more-title" className="section-title">
            更多相关
          </h2>
          <VideoGrid items={more} />
        </section>
      ) : null}
    </>
  );
}
