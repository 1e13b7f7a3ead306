import { lazy, memo, Suspense, useEffect } from "react";
import type { Video } from "../catalogue/types";
import { COVER_HEIGHT, COVER_WIDTH } from "../components/VideoCard";
import { earlyInput } from "./early-input";
import { holdUntilIslandHydrates } from "./island-hydration";
import { episodeMedia } from "../episodes";
import { masterPlaylistPath, mediaNumberOf, subtitlesPath, SUBTITLE_NAMES } from "../stream/contract";
import { subtitleLanguagesOf } from "../stream/subtitle-languages";
import { HLS_MIME } from "../playback/engine-choice";
import { loadHls } from "./load-hls";
import { pageEngine } from "./page-engine";
import type { VideoPlayer as VideoPlayerComponent } from "./VideoPlayer";

type Player = typeof VideoPlayerComponent;
interface PlayerProps {
  video: Video;
  /** 1 for single titles. */
  episode?: number;
  /** Where the page goes when the video ends (the next episode, or the random next video). */
  endedPath: string;
  /** Where a video that cannot play is replaced. */
  failedPath: string;
}

const inBrowser = typeof document !== "undefined";

/**
 * On the server the player renders in place (its whole HTML, with the <video> and its <source>,
 * is in the page). In the browser it is a lazy island: its chunk is not among the page's
 * preloads and hydration does not wait for it — React keeps the server HTML of the boundary
 * below as it is (the <video> already loading and playing) and hydrates it once the chunk is
 * there, replaying clicks made meanwhile. docs/performance.md (budgets) has the sizes.
 */
const serverPlayer: Player | null = inBrowser ? null : (await import("./VideoPlayer")).VideoPlayer;

// The player's chunk starts loading as soon as the page's own chunk runs, in parallel with hydration;
// where hls.js will be needed it starts too (not after the player's chunk).
const playerModule = inBrowser ? import("./VideoPlayer") : null;
if (inBrowser && pageEngine() === "hlsjs") void loadHls();
// Updates the page makes on its own after hydration wait until the player has hydrated (or is gone):
// one reaching the boundary while its chunk loads would replace the server's <video> (island-hydration.ts).
const releaseHydrationHold = inBrowser ? holdUntilIslandHydrates() : () => {};

/**
 * Rendered with the player inside its boundary: its effect runs once the player has hydrated. Where
 * that is the fallback (PlayerUnavailable), the early controls hand over to the browser's own.
 */
function PlayerMounted() {
  useEffect(() => {
    releaseHydrationHold();
    earlyInput()?.handOver();
  }, []);
  return null;
}

const LazyPlayer = lazy(async (): Promise<{ default: Player }> => {
  try {
    return { default: (await playerModule)?.VideoPlayer ?? PlayerUnavailable };
  } catch (error) {
    console.error("播放器加载失败，改用浏览器自带的播放控件", error);
    return { default: PlayerUnavailable };
  }
});

/** The poster in the player's 16:9 box while the player's chunk loads (a client-side navigation only). */
function PlayerPoster({ video, episode = 1 }: PlayerProps) {
  const { coverImage } = episodeMedia(video, episode) ?? { coverImage: `/${video.coverImage}` };
  return (
    <div className="player" data-state="loading" aria-busy="true">
      <img className="player-video" src={coverImage} alt="" width={COVER_WIDTH} height={COVER_HEIGHT} />
    </div>
  );
}

/** The player's chunk did not load (network): the browser's own controls on the same stream, then the MP4. */
function PlayerUnavailable({ video, episode = 1 }: PlayerProps) {
  const { videoFile, coverImage } = episodeMedia(video, episode) ?? { videoFile: video.videoFile, coverImage: `/${video.coverImage}` };
  const n = mediaNumberOf(videoFile) ?? "0";
  const [first = "zh-CN", ...others] = subtitleLanguagesOf(video, episode);
  return (
    <div className="player" role="region" aria-label={`视频播放器：${video.title}`}>
      <video className="player-video" poster={coverImage} controls playsInline preload="metadata" width={COVER_WIDTH} height={COVER_HEIGHT}>
        <source src={masterPlaylistPath(n)} type={HLS_MIME} />
        <source src={videoFile} type="video/mp4" />
        <track kind="captions" src={subtitlesPath(n, first)} srcLang={first} label={SUBTITLE_NAMES[first]} />
        {others.map((language) => (
          <track key={language} kind="captions" src={subtitlesPath(n, language)} srcLang={language} label={SUBTITLE_NAMES[language]} />
        ))}
      </video>
    </div>
  );
}

/**
 * The detail page's player (VideoPlayer.tsx). Give it a key per video and episode so every episode
 * gets a fresh player. Memoised: while its chunk loads, the boundary still holds the server's HTML,
 * and a re-render of the page reaching it (new props objects when the library becomes known) would
 * make React render it anew on the client — a new <video>, restarting what the HTML started.
 */
export const PlayerIsland = memo(function PlayerIsland(props: PlayerProps) {
  const Player = serverPlayer ?? LazyPlayer;
  // Leaving the page before the player hydrated must not keep the page's updates waiting.
  useEffect(() => releaseHydrationHold, []);
  return (
    <Suspense fallback={<PlayerPoster {...props} />}>
      <Player {...props} />
      <PlayerMounted />
    </Suspense>
  );
});
