import { useMemo, useRef, useState } from "react";
import { useLocation, useNavigate } from "../router";
import type { Video } from "../catalogue/types";
import { COVER_HEIGHT, COVER_WIDTH } from "../components/VideoCard";
import { danmakuRoomId, episodeMedia } from "../episodes";
import { mediaNumberOf, storyboardPath } from "../stream/contract";
import { chosenSubtitleLanguage, subtitleLanguagesOf } from "../stream/subtitle-languages";
import { playLines } from "../playback/lines";
import { PlayerControls } from "./PlayerControls";
import * as Overlay from "./PlayerOverlays";
import { initialSource } from "../playback/engine-choice";
import { MediaSources } from "./MediaSources";
import { DanmakuMount, type ReportAt } from "./danmaku/DanmakuMount";
import { useAutoHideControls } from "./useAutoHideControls";
import { useFullscreen, usePictureInPictureAvailable } from "./useFullscreen";
import { usePlaybackFailure } from "./usePlaybackFailure";
import { usePlayerChoices } from "./usePlayerChoices";
import { sendFailureBeacon } from "./failure-beacon";
import { usePlaybackMemory } from "./usePlaybackMemory";
import { usePlayBeacon } from "./usePlayBeacon";
import { usePlaybackState } from "./usePlaybackState";
import { usePlayerCommands } from "./usePlayerCommands";
import { usePlayerInput } from "./usePlayerInput";
import { useStoryboard } from "./useStoryboard";
import { useIntroOutro } from "./useIntroOutro";
import { episodeMarkers } from "../playback/markers";
import { parseStartTime } from "../playback/start-time";
import { preloadStreamStart, usePlayerStream } from "./usePlayerStream";
import { usePlaybackStart } from "./usePlaybackStart";
import { useSubtitles } from "./useSubtitles";
import { useCast } from "./useCast";
import { inRoom, ROOM_NEXT } from "./watch/in-room";

/**
 * The custom player of the detail page (spec §4; mounted through PlayerIsland.tsx). The server
 * renders the <video autoplay muted> with its poster and the master playlist as its source: a
 * browser that plays HLS loads and starts it (muted autoplay is always allowed) while the page's
 * JavaScript is still on its way, and hydration takes over the element as it is — no new load.
 * In the browser useStream binds the engine, usePlaybackMemory applies the stored preferences
 * (volume, sound, speed) and starts playback (unmuted where the browser allows it, else muted with
 * 点击开启声音). Give it a key per video and episode so every episode gets a fresh player.
 * `episode` is 1 for single titles; when it ends the page goes to `endedPath` (the next episode,
 * or the random next video), and a video that cannot play is replaced by `failedPath` — except in a
 * 一起看 room, where the room decides (watch/in-room.ts).
 */
export function VideoPlayer({ video, episode = 1, endedPath, failedPath }: { video: Video; episode?: number; endedPath: string; failedPath: string }) {
  const { videoFile, coverImage: poster } = episodeMedia(video, episode) ?? { videoFile: video.videoFile, coverImage: `/${video.coverImage}` };
  const n = mediaNumberOf(videoFile) ?? "0";
  // 线路: the site's own stream first (what the server renders), then the title's other lines.
  const lines = useMemo(() => playLines(video, episode), [video, episode]);
  const master = lines[0]?.src ?? `/stream/${n}/master.m3u8`;
  const languages = useMemo(() => subtitleLanguagesOf(video, episode), [video, episode]);
  const query = new URLSearchParams(useLocation().search);
  // What the server puts in the <video> (the ?engine= override of the benchmark and tests included).
  const engine = query.get("engine");
  const source = initialSource(engine);
  preloadStreamStart(video, episode, engine, poster);

  const videoRef = useRef<HTMLVideoElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  // 举报 of the 弹幕 under a right click or a long press (set by the overlay once loaded).
  const reportDanmakuAt = useRef<ReportAt | null>(null);
  const navigate = useNavigate();
  const state = usePlaybackState(videoRef);
  const { visible, show, hide } = useAutoHideControls(state.playing);
  const pip = usePictureInPictureAvailable(videoRef);

  // Playback starts once the stored preferences are applied and the element is bound to the stream.
  const [prefsApplied, setPrefsApplied] = useState(false);
  const markers = useMemo(() => episodeMarkers(video, episode), [video, episode]);
  const hasNext = episode < (video.episodes?.length ?? 1);
  // ?t= of a shared moment: playback starts there, and no 继续播放 is offered over it.
  const startAt = parseStartTime(query.get("t"));
  const memory = usePlaybackMemory(videoRef, video.id, episode, () => setPrefsApplied(true), !hasNext, markers.intro, startAt !== null);
  usePlayBeacon(videoRef, video.id);
  const { lib, dismissResume } = memory;
  // The end with 自动连播: on to `endedPath`; in a 一起看 room the room decides (its host moves everyone).
  const goOn = () => {
    dismissResume();
    if (inRoom()) document.dispatchEvent(new Event(ROOM_NEXT));
    else void navigate(endedPath);
  };
  const introOutro = useIntroOutro(videoRef, markers, { ready: lib.ready, autoSkip: lib.prefs.autoSkip, autoNext: lib.prefs.autoNext, hasNext, onNext: goOn });
  const cmd = usePlayerCommands(videoRef, memory.setPrefs);
  const { stream, failover, chooseLine } = usePlayerStream(videoRef, { id: video.id, episode, lines, mp4: videoFile }, lib.ready ? lib.prefs.quality : null);
  const cast = useCast(videoRef, videoFile, stream.playProgressive);
  const storyboard = useStoryboard(storyboardPath(n));
  const subtitleLanguage = chosenSubtitleLanguage(languages, lib.ready ? lib.prefs : null);
  const subtitleText = useSubtitles(videoRef, subtitleLanguage);
  const fullscreen = useFullscreen(boxRef, videoRef);

  const { failed, outage, onError, retry, retryOutage, onPlaying, isHandled } = usePlaybackFailure(videoRef, {
    videoFile,
    failedPath,
    fallBack: stream.fallBack,
    reload: stream.reload,
    freeze: memory.freeze,
    start: cmd.start,
    report: () => sendFailureBeacon(video.id, episode),
  });

  const { toggleSubtitles, chooseSubtitles, chooseQuality, resume } = usePlayerChoices(videoRef, memory, cmd, stream);

  const gestures = usePlayerInput(videoRef, cmd, { playing: state.playing, visible, show }, { reportDanmakuAt, toggleSubtitles, fullscreen });
  usePlaybackStart(videoRef, prefsApplied && stream.attached, { isHandled, start: cmd.start, setVolume: cmd.setVolume, dismissResume, startAt });
  return (
    <div
      ref={boxRef}
      className="player"
      data-state={failed ? "failed" : state.playing ? "playing" : "paused"}
      data-engine={stream.kind ?? undefined}
      data-controls={visible || !state.playing ? "shown" : "hidden"}
      role="region"
      aria-label={`视频播放器：${video.title}`}
      onMouseMove={show}
      onMouseLeave={hide}
      onPointerDown={show}
      onFocus={show}
      onContextMenu={(event) => {
        // A right click on a 弹幕 opens 举报 instead of the browser's menu (a touch's long press is useTouchGestures').
        if (!gestures.isTouch() && reportDanmakuAt.current?.(event.clientX, event.clientY)) event.preventDefault();
      }}
    >
      <video
        ref={videoRef}
        className="player-video"
        data-stream={source === "mp4" ? undefined : master}
        poster={poster}
        preload="auto"
        autoPlay
        muted
        playsInline
        width={COVER_WIDTH}
        height={COVER_HEIGHT}
        {...gestures.handlers}
        onClick={() => {
          if (!gestures.isTouch()) cmd.togglePlay();
        }}
        onDoubleClick={() => {
          if (!gestures.isTouch()) fullscreen.toggle();
        }}
        onPlaying={onPlaying}
        onEnded={() => {
          dismissResume();
          // 取消 of the outro's countdown, or 自动连播 off: the player stays at the end. A countdown
          // still running moves on when it reaches 0.
          if (introOutro.cancelled || introOutro.countdown !== null || (lib.ready && !lib.prefs.autoNext)) return;
          goOn();
        }}
        onError={onError}
      >
        <MediaSources source={source} master={master} mp4={videoFile} n={n} languages={languages} />
      </video>
      <DanmakuMount videoRef={videoRef} room={danmakuRoomId(video, episode)} reportAtRef={reportDanmakuAt} />
      <Overlay.SubtitleText text={subtitleText} />
      <Overlay.GestureHintView hint={gestures.hint} />
      {lib.ready && !state.playing && !failed ? <Overlay.BigPlay /> : null}
      {state.waiting && state.playing && !failed ? <Overlay.Spinner /> : null}
      {cmd.needsUnmute && state.muted ? <Overlay.UnmutePrompt onUnmute={cmd.unmute} /> : null}
      {memory.resumeAt !== null && !failed ? <Overlay.ResumePrompt at={memory.resumeAt} onResume={resume} /> : null}
      {failed ? <Overlay.PlaybackError onRetry={retry} /> : outage ? <Overlay.MediaOutage onRetry={retryOutage} /> : null}
      <Overlay.LineNotice text={failover.notice ?? cast.notice} />
      {cast.way ? <Overlay.CastButton onCast={() => void cast.cast()} /> : null}
      {introOutro.offerSkip && !failed ? <Overlay.SkipIntroPrompt onSkip={introOutro.skipIntro} /> : null}
      {introOutro.countdown !== null && !failed ? <Overlay.NextEpisodeCountdown seconds={introOutro.countdown} onCancel={introOutro.cancelNext} /> : null}
      <PlayerControls
        {...state}
        fullscreen={fullscreen.fullscreen}
        pip={pip}
        levels={stream.levels}
        adaptive={stream.kind !== "progressive"}
        quality={lib.prefs.quality}
        height={stream.height}
        subtitles={subtitleLanguage}
        subtitleLanguages={languages}
        lines={lines}
        line={stream.line}
        onTogglePlay={cmd.togglePlay}
        onRestart={cmd.restart}
        onToggleMute={cmd.toggleMute}
        onVolume={cmd.setVolume}
        onSeek={cmd.seek}
        onRate={cmd.changeRate}
        onQuality={chooseQuality}
        onSubtitles={chooseSubtitles}
        onLine={chooseLine}
        onTogglePip={cmd.togglePip}
        onToggleFullscreen={fullscreen.toggle}
        onPreviewWanted={storyboard.load}
        cueAt={storyboard.cueAt}
      />
    </div>
  );
}
