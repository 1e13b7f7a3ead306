import { useEffect, useState } from "react";
import { Link, useLoaderData, useLocation, useNavigate } from "../router";
import type { Video } from "../catalogue/types";
import { EpisodeList } from "../components/EpisodeList";
import { EpisodeNav } from "../components/EpisodeNav";
import { PageMeta } from "../components/PageMeta";
import { VideoGrid } from "../components/VideoGrid";
import { afterEnded, episodeMedia, isSeries, rangeIndexOf, videoPath } from "../episodes";
import { formatRating, formatViews } from "../format";
import { serializeForScript } from "../hydration";
import { useLibrary } from "../components/library-context";
import { lastEpisode } from "../library";
import { SIDEBAR_RELATED_COUNT, type VideoData } from "../loaders";
import { useRootData } from "../components/useRootData";
import type { SiteConfig } from "../site-config";
import { COVER_HEIGHT, COVER_WIDTH } from "../components/VideoCard";
import { VideoActions } from "../components/VideoActions";
import { PlaybackSettings } from "../components/PlaybackSettings";
import { PlayerIsland } from "../player/PlayerIsland";
import { RatingIsland } from "../components/RatingIsland";
import { WatchMount } from "../player/watch/WatchMount";
import { parseStartTime } from "../playback/start-time";
import { shareImagePath } from "../stream/share-frames";
import { CommentsSlot } from "../components/comments/CommentsSlot";

/** The canonical path of what the page shows: /video/{id}, or /video/{id}/{n} for a named episode. */
export function canonicalVideoPath(data: Pick<VideoData, "id" | "episode" | "episodeInUrl">): string {
  return data.episodeInUrl ? videoPath(data.id, data.episode) : videoPath(data.id);
}

/** The page's structured data, built by the worker only (shared/pages/video-structured-data.ts, handed over at its start). */
let structuredData: ((video: Video, data: VideoData, config: SiteConfig) => unknown) | null = null;

/** The worker hands over the structured data's builder (worker/ssr.tsx): the browser's bundle never holds it. */
export function renderStructuredDataWith(build: typeof structuredData): void {
  structuredData = build;
}

/** The same object on every render in the browser: React keeps the server's JSON-LD as it is (it does not rewrite a hydrated element's HTML). */
const KEEP = { __html: "" };

/**
 * On /video/{id} of a series, the episode the visitor was watching last (browser storage, which
 * holds the account's library when signed in) replaces episode 1. Returns that episode while the
 * page moves there (null otherwise), so that episode 1 does not start playing meanwhile.
 */
function useResumeEpisode(data: VideoData): number | null {
  const { library, ready } = useLibrary();
  const navigate = useNavigate();
  const page = useLocation().key; // each navigation decides anew
  // Decided once per page, when the library first becomes known: later saves must not move the page.
  const [decision, setDecision] = useState<{ page: string; to: number | null } | null>(null);
  let current = decision !== null && decision.page === page ? decision : null;
  if (ready && current === null) {
    const last = isSeries(data.video) && !data.episodeInUrl ? lastEpisode(library, data.id) : data.episode;
    current = { page, to: last !== data.episode ? last : null };
    setDecision(current);
  }
  const resumeTo = current?.to ?? null;
  useEffect(() => {
    if (resumeTo !== null) void navigate(videoPath(data.id, resumeTo), { replace: true, preventScrollReset: true });
  }, [resumeTo, data.id, navigate]);
  return resumeTo;
}

export function VideoPage() {
  const data = useLoaderData<VideoData>();
  const { config, user } = useRootData();
  const { video, episode } = data;
  const media = episodeMedia(video, episode) ?? { name: video.title, videoFile: video.videoFile, coverImage: `/${video.coverImage}`, duration: video.duration };
  const series = isSeries(video);
  const resumeTo = useResumeEpisode(data);
  const sidebar = data.related.slice(0, SIDEBAR_RELATED_COUNT);
  const more = data.related.slice(SIDEBAR_RELATED_COUNT);
  const path = canonicalVideoPath(data);
  const pageUrl = config.origin + path;
  const title = series && data.episodeInUrl ? `${video.title} ${media.name}` : video.title;
  // A ?t= link's preview shows that moment's frame (decision 0098); the title stays the og:title.
  const startAt = parseStartTime(new URLSearchParams(useLocation().search).get("t"));
  const image = startAt === null ? media.coverImage : shareImagePath(video.id, startAt, series && data.episodeInUrl ? episode : null);
  return (
    <>
      <PageMeta
        title={title}
        description={video.description}
        path={path}
        image={image}
        type={series ? (data.episodeInUrl ? "video.episode" : "video.tv_show") : "video.movie"}
      />
      <meta property="og:video" content={config.origin + media.videoFile} />
      <meta property="og:video:type" content="video/mp4" />
      <meta property="og:video:width" content={String(COVER_WIDTH)} />
      <meta property="og:video:height" content={String(COVER_HEIGHT)} />
      <meta name="twitter:card" content="player" />
      <meta name="twitter:title" content={title} />
      <meta name="twitter:description" content={video.description} />
      <meta name="twitter:image" content={config.origin + image} />
      <meta name="twitter:player" content={pageUrl} />
      <meta name="twitter:player:width" content={String(COVER_WIDTH)} />
      <meta name="twitter:player:height" content={String(COVER_HEIGHT)} />
      {/* Keyed by page: after a move in the browser the element is a new, empty one (crawlers read the server's). */}
      <script
        key={path}
        type="application/ld+json"
        dangerouslySetInnerHTML={structuredData ? { __html: serializeForScript(structuredData(video, data, config)) } : KEEP}
      />

      <div className="video-layout">
        <div className="video-main">
          {resumeTo === null ? (
            <PlayerIsland
              key={`${video.id}/${episode}`}
              video={video}
              episode={episode}
              endedPath={afterEnded(video, episode, data.nextVideoId)}
              failedPath={videoPath(data.nextVideoId)}
            />
          ) : (
            <div className="player" aria-busy="true" aria-label={`正在打开上次观看的第${resumeTo}集`} role="region" />
          )}
          {/* The 弹幕 bar (shared/player/danmaku/Danmaku.tsx) is portalled here after hydration. */}
          <div id="danmaku-bar" className="danmaku-bar-slot" />
          <div className="video-info">
            <h1 className="video-title">{video.title}</h1>
            {series ? <EpisodeNav video={video} episode={episode} /> : null}
            <p className="video-meta">
              <span>{video.year}</span>
              <span>{media.duration}</span>
              <span className="rating">★ {formatRating(video.rating)}</span>
              <span>{`${formatViews(data.views)}次播放`}</span>
              <span className="badge badge-free">免费观看</span>
            </p>
            <VideoActions video={video} episode={episode} />
            <WatchMount key={`watch/${video.id}`} videoId={video.id} episode={episode} />
            {video.episodes || video.intro || video.outro ? <PlaybackSettings /> : null}
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
            {series ? <EpisodeList key={`${video.id}/${rangeIndexOf(episode)}`} video={video} episode={episode} /> : null}
            <h2 className="video-subtitle">剧情简介</h2>
            <p className="video-description">{video.description}</p>
            <RatingIsland key={`rating/${video.id}`} titleId={video.id} siteRating={video.rating} summary={data.ratings} signedIn={user !== null} path={path} />
          </div>
          <CommentsSlot key={`comments/${video.id}`} titleId={video.id} episode={episode} path={path} signedIn={!!user} page={data.comments} />
        </div>
        <aside className="video-sidebar" aria-labelledby="related-title">
          {/* 一起看's panel (shared/player/watch/WatchParty.tsx) is portalled here on wide screens. */}
          <div id="watch-slot" />
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
