import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { preload } from "react-dom";
import { useLocation, useNavigate } from "../router";
import type { Video } from "../catalogue/types";
import { COVER_HEIGHT, COVER_WIDTH } from "../components/VideoCard";
import { danmakuRoomId, episodeMedia } from "../episodes";
import { mediaNumberOf, storyboardPath, subtitlesPath, SUBTITLE_NAMES, type SubtitleLanguage } from "../stream/contract";
import { subtitleLanguagesOf } from "../stream/subtitle-languages";
import { playLines, startLine } from "../playback/lines";
import { playerConfig } from "../playback/config";
import { PlayerControls } from "./PlayerControls";
import { Icon } from "./icons";
import { BigPlay, GestureHintView, LineNotice, MediaOutage, PlaybackError, ResumePrompt, Spinner, SubtitleText, UnmutePrompt } from "./PlayerOverlays";
import { HLS_MIME, initialSource } from "../playback/engine-choice";
import { DanmakuMount, type ReportAt } from "./danmaku/DanmakuMount";
import { earlyInput, type EarlyDecisions } from "./early-input";
import { useAutoHideControls } from "./useAutoHideControls";
import { useFullscreen } from "./useFullscreen";
import { rememberedLine, rememberLine, reportLineFailure, useLineFailover } from "./useLineFailover";
import { usePlaybackFailure } from "./usePlaybackFailure";
import { sendFailureBeacon } from "./failure-beacon";
import { usePlaybackMemory } from "./usePlaybackMemory";
import { usePlayBeacon } from "./usePlayBeacon";
import { usePlaybackState } from "./usePlaybackState";
import { usePlayerCommands } from "./usePlayerCommands";
import { runShortcut, usePlayerKeyboard } from "./usePlayerKeyboard";
import { useStoryboard } from "./useStoryboard";
import { useIntroOutro } from "./useIntroOutro";
import { episodeMarkers } from "../playback/markers";
import { parseStartTime } from "../playback/start-time";
import { streamStartPreloads } from "../playback/stream-start";
import { useStream } from "./useStream";
import { useSubtitles } from "./useSubtitles";
import { useTouchGestures } from "./useTouchGestures";
import { useCast } from "./useCast";
import { inRoom, ROOM_NEXT } from "./watch/in-room";

const noSubscription = () => () => {};

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
  const { videoFile, coverImage } = episodeMedia(video, episode) ?? { videoFile: video.videoFile, coverImage: `/${video.coverImage}` };
  const n = mediaNumberOf(videoFile) ?? "0";
  const poster = coverImage;
  // 线路: the site's own stream first (what the server renders), then the title's other lines.
  const lines = useMemo(() => playLines(video, episode), [video, episode]);
  const master = lines[0]?.src ?? `/stream/${n}/master.m3u8`;
  const languages = useMemo(() => subtitleLanguagesOf(video, episode), [video, episode]);
  const query = new URLSearchParams(useLocation().search);
  // What the server puts in the <video> (the ?engine= override of the benchmark and tests included).
  const engine = query.get("engine");
  const source = initialSource(engine);
  preload(poster, { as: "image", fetchPriority: "high" });
  // Every engine reads the master and then the start rendition's playlist before its first segment:
  // both at once, high (small, and on the critical path). hls.js reads them from these preloads,
  // native players from the HTTP cache they fill. The worker sends the same two as a Link header.
  for (const href of streamStartPreloads(video, episode, engine)) preload(href, { as: "fetch", crossOrigin: "anonymous", fetchPriority: "high" });

  const videoRef = useRef<HTMLVideoElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  // 举报 of the 弹幕 under a right click or a long press (set by the overlay once loaded).
  const reportDanmakuAt = useRef<ReportAt | null>(null);
  const navigate = useNavigate();
  const state = usePlaybackState(videoRef);
  const { visible, show, hide } = useAutoHideControls(state.playing);
  // Most browsers have picture-in-picture: the button is rendered (no layout shift) and removed after hydration where missing.
  const [pip, setPip] = useState(true);

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
  const introOutro = useIntroOutro(videoRef, markers, {
    ready: lib.ready,
    autoSkip: lib.prefs.autoSkip,
    autoNext: lib.prefs.autoNext,
    hasNext,
    onNext: goOn,
  });
  const cmd = usePlayerCommands(videoRef, memory.setPrefs);
  // The remembered line is read in the browser once mounted (the server renders line 1).
  const firstLine = useSyncExternalStore(
    noSubscription,
    () => startLine(lines, rememberedLine(video.id)),
    () => null,
  );
  const stream = useStream(videoRef, lines, videoFile, lib.ready ? lib.prefs.quality : null, {
    startLine: firstLine,
    onLineFailed: (failedLine, next) => {
      reportLineFailure(video.id, episode, failedLine);
      failover.announce(next);
    },
  });
  const failover = useLineFailover(videoRef, lines, stream);
  const cast = useCast(videoRef, videoFile, stream.playProgressive);
  const storyboard = useStoryboard(storyboardPath(n));
  // 字幕: the remembered language where the media has it, else its first one; none while off.
  const subtitleLanguage: SubtitleLanguage | null =
    lib.ready && lib.prefs.subtitles && languages.length > 0
      ? languages.includes(lib.prefs.subtitleLanguage)
        ? lib.prefs.subtitleLanguage
        : languages[0]
      : null;
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

  const toggleSubtitles = () => memory.setPrefs({ subtitles: !lib.prefs.subtitles });
  const chooseSubtitles = (choice: SubtitleLanguage | "off") =>
    memory.setPrefs(choice === "off" ? { subtitles: false } : { subtitles: true, subtitleLanguage: choice });
  const chooseLine = (index: number) => {
    rememberLine(video.id, index);
    stream.chooseLine(index);
  };
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
    onLongPressAt: (x, y) => reportDanmakuAt.current?.(x, y) ?? false,
    onHoldStart: () => cmd.holdRate(playerConfig.longPressRate),
    onHoldEnd: cmd.restoreRate,
    controlsHidden: () => !visible,
  });

  usePlayerKeyboard((command) => {
    show();
    runShortcut(command, videoRef.current as HTMLVideoElement, { ...cmd, toggleSubtitles, toggleFullscreen: fullscreen.toggle });
  });

  // The player takes over from the early controls (what the viewer did on the server's <video>
  // before hydration); declared before the start below, so it has run by then.
  const early = useRef<EarlyDecisions | null>(null);
  useEffect(() => {
    early.current = earlyInput()?.handOver() ?? null;
  }, []);

  const started = useRef(false);
  useEffect(() => {
    if (!prefsApplied || !stream.attached || started.current || isHandled()) return;
    started.current = true;
    // A choice the viewer made before hydration stands over the stored preferences and the autoplay.
    const { sound, seeked, paused } = early.current ?? {};
    if (sound) cmd.setVolume(sound.volume, sound.muted);
    if (seeked) dismissResume();
    const v = videoRef.current;
    // A ?t= link starts there (unless the viewer already moved the playhead).
    if (startAt !== null && v && !seeked) {
      const seek = () => {
        if (startAt < v.duration) v.currentTime = startAt;
      };
      if (v.readyState >= 1) seek();
      else v.addEventListener("loadedmetadata", seek, { once: true });
    }
    if (paused) return;
    // Nor over a pause after the page hydrated: the element had played (its early start) and stands paused.
    if (v && v.paused && !v.ended && v.played.length > 0) return;
    void cmd.start();
  }, [prefsApplied, stream.attached, cmd, isHandled, dismissResume, startAt]);

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
        {source === "hls" ? <source src={master} type={HLS_MIME} /> : source === "mp4" ? <source src={videoFile} type="video/mp4" /> : null}
        {languages.map((language) => (
          <track key={language} kind="captions" src={subtitlesPath(n, language)} srcLang={language} label={SUBTITLE_NAMES[language]} />
        ))}
      </video>
      <DanmakuMount videoRef={videoRef} room={danmakuRoomId(video, episode)} reportAtRef={reportDanmakuAt} />
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
            dismissResume();
            if (videoRef.current?.paused) void cmd.start();
          }}
        />
      ) : null}
      {failed ? <PlaybackError onRetry={retry} /> : outage ? <MediaOutage onRetry={retryOutage} /> : null}
      <LineNotice text={failover.notice ?? cast.notice} />
      {/* 投屏: top right, as phone players put it (the bar is full on a phone); only where the browser can cast. */}
      {cast.way ? (
        <button type="button" className="player-button player-cast" aria-label="投屏" title="投屏" onClick={() => void cast.cast()}>
          <Icon name="cast" />
        </button>
      ) : null}
      {introOutro.offerSkip && !failed ? (
        <button type="button" className="player-prompt player-skip" onClick={introOutro.skipIntro}>
          跳过片头
        </button>
      ) : null}
      {introOutro.countdown !== null && !failed ? (
        <div className="player-prompt player-next" role="status">
          <span>{`即将播放下一集 ${introOutro.countdown}`}</span>
          <button type="button" className="player-next-cancel" onClick={introOutro.cancelNext}>
            取消
          </button>
        </div>
      ) : null}
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
