import { useEffect, useRef, useState } from "react";
import { preload } from "react-dom";
import { useNavigate } from "react-router";
import { videos, type Video } from "../catalogue/index";
import { COVER_HEIGHT, COVER_WIDTH } from "../components/VideoCard";
import { randomInt } from "../random";
import { masterPlaylistPath, mediaNumberOf, storyboardPath, subtitlesPath } from "../stream/contract";
import { playerConfig } from "./config";
import { MAX_FAILURES, recordFailure, resetFailures } from "./failure-counter";
import { PlayerControls } from "./PlayerControls";
import { BigPlay, GestureHintView, PlaybackError, ResumePrompt, Spinner, SubtitleText, UnmutePrompt } from "./PlayerOverlays";
import { HLS_MIME, loadHls, pageEngine } from "./stream-engine";
import { DanmakuMount } from "./danmaku/DanmakuMount";
import { useAutoHideControls } from "./useAutoHideControls";
import { useFullscreen } from "./useFullscreen";
import { usePlaybackMemory } from "./usePlaybackMemory";
import { usePlaybackState } from "./usePlaybackState";
import { usePlayerCommands } from "./usePlayerCommands";
import { usePlayerKeyboard, type PlayerCommand } from "./usePlayerKeyboard";
import { useStoryboard } from "./useStoryboard";
import { useStream } from "./useStream";
import { useSubtitles } from "./useSubtitles";
import { useTouchGestures } from "./useTouchGestures";

// Where hls.js will be needed, fetch it while the page hydrates rather than after the player mounts.
if (typeof document !== "undefined" && pageEngine() === "hlsjs") void loadHls();

/** A random video of the whole list other than `id`. */
export function randomOtherVideo(id: string): Video {
  const others = videos.filter((v) => v.id !== id);
  return others[randomInt(0, others.length - 1)];
}

/**
 * The custom player of the detail page (spec §4). The server renders the <video> with its poster
 * and the master playlist as its source (browsers that play HLS start loading before hydration);
 * in the browser useStream picks the engine, usePlaybackMemory applies the stored preferences and
 * starts playback. Give it `key={video.id}` so every video gets a fresh player.
 */
export function VideoPlayer({ video }: { video: Video }) {
  const n = mediaNumberOf(video.videoFile) ?? "0";
  const poster = `/${video.coverImage}`;
  const master = masterPlaylistPath(n);
  preload(poster, { as: "image", fetchPriority: "high" });
  preload(master, { as: "fetch", crossOrigin: "anonymous" });

  const videoRef = useRef<HTMLVideoElement>(null);
  const trackRef = useRef<HTMLTrackElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const state = usePlaybackState(videoRef);
  const { visible, show, hide } = useAutoHideControls(state.playing);
  const [failed, setFailed] = useState(false);
  // Most browsers have picture-in-picture: the button is rendered (no layout shift) and removed after hydration where missing.
  const [pip, setPip] = useState(true);
  const errorHandled = useRef(false);

  // Playback starts once the stored preferences are applied and the element is bound to the stream.
  const [prefsApplied, setPrefsApplied] = useState(false);
  const memory = usePlaybackMemory(videoRef, video.id, () => setPrefsApplied(true));
  const { lib } = memory;
  const cmd = usePlayerCommands(videoRef, memory.setPrefs);
  const stream = useStream(videoRef, master, video.videoFile, () => lib.prefs.quality);
  const storyboard = useStoryboard(storyboardPath(n));
  const subtitleText = useSubtitles(trackRef, lib.ready && lib.prefs.subtitles);
  const fullscreen = useFullscreen(boxRef, videoRef);

  const goToRandomVideo = (replace: boolean) => void navigate(`/video/${randomOtherVideo(video.id).id}`, { replace });

  const onError = () => {
    if (errorHandled.current) return;
    const error = videoRef.current?.error;
    if (stream.fallBack(error ? `(${error.code}) ${error.message}` : "媒体错误")) return;
    console.error(`视频播放失败：${video.videoFile}`, error ? `(${error.code}) ${error.message}` : "");
    errorHandled.current = true;
    memory.freeze();
    if (recordFailure() >= MAX_FAILURES) setFailed(true);
    else goToRandomVideo(true);
  };

  const retry = () => {
    resetFailures();
    errorHandled.current = false;
    setFailed(false);
    videoRef.current?.load();
    void cmd.start();
  };

  const toggleSubtitles = () => memory.setPrefs({ subtitles: !lib.prefs.subtitles });
  const chooseQuality = (choice: typeof lib.prefs.quality) => {
    memory.setPrefs({ quality: choice });
    stream.setQuality(choice);
  };

  const gestures = useTouchGestures({
    onTap: (hidden) => (hidden && state.playing ? show() : cmd.togglePlay()),
    onSeekBy: (delta) => {
      show();
      cmd.seekBy(delta);
    },
    onHoldStart: () => cmd.holdRate(playerConfig.longPressRate),
    onHoldEnd: cmd.restoreRate,
    controlsHidden: () => !visible,
  });

  usePlayerKeyboard((command: PlayerCommand) => {
    const v = videoRef.current as HTMLVideoElement;
    show();
    if (command === "toggle") cmd.togglePlay();
    else if (command === "back") cmd.seekBy(-playerConfig.seekStep);
    else if (command === "forward") cmd.seekBy(playerConfig.seekStep);
    else if (command === "volumeUp") cmd.setVolume(v.volume + playerConfig.volumeStep);
    else if (command === "volumeDown") cmd.setVolume(v.volume - playerConfig.volumeStep, v.muted);
    else if (command === "mute") cmd.toggleMute();
    else if (command === "subtitles") toggleSubtitles();
    else fullscreen.toggle();
  });

  const started = useRef(false);
  useEffect(() => {
    if (!prefsApplied || !stream.attached || started.current || errorHandled.current) return;
    started.current = true;
    void cmd.start();
  }, [prefsApplied, stream.attached, cmd]);

  // Once mounted: catch up with what the element did before hydration.
  useEffect(() => {
    const v = videoRef.current as HTMLVideoElement;
    setPip(document.pictureInPictureEnabled === true && !v.disablePictureInPicture);
  }, []);

  const status = failed ? "failed" : state.playing ? "playing" : "paused";
  return (
    <div
      ref={boxRef}
      className="player"
      data-state={status}
      data-engine={stream.kind ?? undefined}
      data-controls={visible || !state.playing ? "shown" : "hidden"}
      role="region"
      aria-label={`视频播放器：${video.title}`}
      onMouseMove={show}
      onMouseLeave={hide}
      onPointerDown={show}
      onFocus={show}
    >
      <video
        ref={videoRef}
        className="player-video"
        poster={poster}
        preload="auto"
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
        onPlaying={() => {
          resetFailures();
          setFailed(false);
          stream.playing();
        }}
        onEnded={() => {
          memory.dismissResume();
          goToRandomVideo(false);
        }}
        onError={onError}
      >
        <source src={master} type={HLS_MIME} />
        <track ref={trackRef} kind="captions" src={subtitlesPath(n)} srcLang="zh-CN" label="中文" />
      </video>
      <DanmakuMount videoRef={videoRef} videoId={video.id} />
      <SubtitleText text={subtitleText} />
      <GestureHintView hint={gestures.hint} />
      {lib.ready && !state.playing && !failed ? <BigPlay /> : null}
      {state.waiting && state.playing && !failed ? <Spinner /> : null}
      {cmd.needsUnmute && state.muted ? <UnmutePrompt onUnmute={cmd.unmute} /> : null}
      {memory.resumeAt !== null && !failed ? (
        <ResumePrompt
          at={memory.resumeAt}
          onResume={() => {
            cmd.seek(memory.resumeAt ?? 0);
            memory.dismissResume();
            if (videoRef.current?.paused) void cmd.start();
          }}
        />
      ) : null}
      {failed ? <PlaybackError onRetry={retry} /> : null}
      <PlayerControls
        {...state}
        fullscreen={fullscreen.fullscreen}
        pip={pip}
        levels={stream.levels}
        adaptive={stream.kind !== "progressive"}
        quality={lib.prefs.quality}
        height={stream.height}
        subtitles={lib.prefs.subtitles}
        onTogglePlay={cmd.togglePlay}
        onRestart={cmd.restart}
        onToggleMute={cmd.toggleMute}
        onVolume={(x) => cmd.setVolume(x)}
        onSeek={cmd.seek}
        onRate={cmd.changeRate}
        onQuality={chooseQuality}
        onToggleSubtitles={toggleSubtitles}
        onTogglePip={cmd.togglePip}
        onToggleFullscreen={fullscreen.toggle}
        onPreviewWanted={storyboard.load}
        cueAt={storyboard.cueAt}
      />
    </div>
  );
}
