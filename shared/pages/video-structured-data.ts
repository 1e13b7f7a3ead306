/**
 * The video page's structured data (schema.org JSON-LD with absolute URLs), built by the worker
 * only: shared/pages/VideoPage.tsx renders it through the builder the worker hands over
 * (worker/ssr.tsx), and in the browser keeps the server's element as it is, so this code is not
 * in the page's JavaScript.
 */
import type { Video } from "../catalogue/types";
import { episodeCount, episodeMedia, isSeries, videoPath } from "../episodes";
import { isoDuration } from "../format";
import type { VideoData } from "../loaders";
import type { SiteConfig } from "../site-config";

/** The viewers' average and count once enough viewers rated (VideoData.viewerScore), else the catalogue's rating. */
function aggregateRating(video: Video, data: VideoData) {
  return { "@type": "AggregateRating", ratingValue: data.viewerScore ?? video.rating, bestRating: 10, worstRating: 0, ratingCount: data.ratingCount };
}

/** schema.org VideoObject of one file (a single title, or one episode) with absolute URLs (spec §9, structured data). */
function videoObject(video: Video, episode: number, config: SiteConfig, name: string, embedPath: string) {
  const media = episodeMedia(video, episode) ?? { videoFile: video.videoFile, coverImage: `/${video.coverImage}`, duration: video.duration };
  return {
    "@type": "VideoObject",
    name,
    description: video.description,
    thumbnailUrl: [config.origin + media.coverImage],
    uploadDate: `${video.year}-01-01`,
    duration: isoDuration(media.duration),
    contentUrl: config.origin + media.videoFile,
    embedUrl: config.origin + embedPath,
    inLanguage: "zh-CN",
  };
}

/**
 * Structured data with absolute URLs: a VideoObject for a single title (spec §9); for a series a
 * TVSeries listing every episode on /video/{id}, and a TVEpisode (part of the series, with its
 * VideoObject) on /video/{id}/{n}.
 */
export function videoStructuredData(video: Video, data: VideoData, config: SiteConfig) {
  const context = "https://schema.org";
  if (!isSeries(video)) {
    return {
      "@context": context,
      ...videoObject(video, 1, config, video.title, videoPath(video.id)),
      genre: video.category,
      keywords: video.tags.join(","),
      aggregateRating: aggregateRating(video, data),
    };
  }
  const seriesUrl = config.origin + videoPath(video.id);
  const episodeOf = (n: number) => {
    const media = episodeMedia(video, n);
    return { "@type": "TVEpisode", episodeNumber: n, name: media?.name ?? `第${n}集`, url: config.origin + videoPath(video.id, n) };
  };
  if (data.episodeInUrl) {
    const episode = episodeOf(data.episode);
    return {
      "@context": context,
      ...episode,
      description: video.description,
      partOfSeries: { "@type": "TVSeries", name: video.title, url: seriesUrl },
      video: videoObject(video, data.episode, config, `${video.title} ${episode.name}`, videoPath(video.id, data.episode)),
    };
  }
  return {
    "@context": context,
    "@type": "TVSeries",
    name: video.title,
    description: video.description,
    url: seriesUrl,
    image: `${config.origin}/${video.coverImage}`,
    genre: video.category,
    keywords: video.tags.join(","),
    inLanguage: "zh-CN",
    startDate: String(video.year),
    numberOfEpisodes: video.totalEpisodes ?? episodeCount(video),
    aggregateRating: aggregateRating(video, data),
    episode: Array.from({ length: episodeCount(video) }, (_, i) => episodeOf(i + 1)),
    trailer: videoObject(video, 1, config, `${video.title} ${episodeOf(1).name}`, videoPath(video.id, 1)),
  };
}
