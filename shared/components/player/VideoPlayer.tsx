import { useEffect, useRef, useState } from "react";
import { preload } from "react-dom";
import { useNavigate } from "react-router";
import { videos, type Video } from "../../catalogue/index";
import { formatTime } from "../../format";
import { DEFAULT_PREFS, resumePosition, useLibrary } from "../../library";
import { randomInt } from "../../random";
import { COVER_HEIGHT, COVER_WIDTH } from "../VideoCard";
import { MAX_FAILURES, recordFailure, resetFailures } from "./failure-counter";
import { Icon } from "./icons";
import { PlayerControls } from "./PlayerControls";
import { useAutoHideControls } from "./useAutoHideControls";
import { usePlayerKeyboard, type PlayerCommand } from "./usePlayerKeyboard";

/** ←/→ seek this many seconds. */
export const SEEK_STEP = 10;
/** ↑/↓ change the volume by this much (spec §9). */
export const VOLUME_STEP = 0.1;
/** The position is saved at least this often while playing (seconds of playback). */
const SAVE_EVERY = 5;
/** The resume prompt goes away by itself after this long. */
const RESUME_PROMPT_MS = 12_000;

const clamp = (x: number, min: number, max: number) => Math.min(max, Math.max(min, x));

/** A random video of the whole list other than `id`. */
export function randomOtherVideo(id: string): Video {
  const others = videos.filter((v) => v.id !== id);
  return others[randomInt(0, others.length - 1)];
}

/**
 * The custom player of the detail page (spec §4). The server renders the
 * `<video>` with its poster and source (the picture shows before hydration);
 * playback starts in the browser once the stored preferences are read.
 * Give it `key={video.id}` so every video gets a fresh player.
 */
export function VideoPlayer({ video }: { video: Video }) {
  const poster = `/${video.coverImage}`;
  preload(poster, { as: "image", fetchPriority: "high" });

  const videoRef = useRef<HTMLVideoElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const lib = useLibrary();
  const libRef = useRef(lib);
  useEffect(() => {
    libRef.current = lib;
  });

  const [playing, setPlaying] = useState(false);
  const [muted, setMuted] = useState(DEFAULT_PREFS.muted);
  const [volume, setVolumeState] = useState(DEFAULT_PREFS.volume);
  const [rate, setRate] = useState(DEFAULT_PREFS.rate);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [fullscreen, setFullscreen] = useState(false);
  // Most browsers have picture-in-picture: the button is rendered (no layout shift) and removed after hydration where missing.
  const [pip, setPip] = useState(true);
  const [needsUnmute, setNeedsUnmute] = useState(false);
  const [resumeAt, setResumeAt] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const { visible, show, hide } = useAutoHideControls(playing);

  const started = useRef(false);
  const errorHandled = useRef(false);
  const lastSaved = useRef(0);
  /** Set at pointerdown: a touch on hidden controls only reveals them. */
  const revealOnly = useRef(false);

  const el = () => videoRef.current as HTMLVideoElement;

  const savePosition = (v: HTMLVideoElement) => {
    if (errorHandled.current || !(v.duration > 0) || !(v.currentTime > 0)) return;
    lastSaved.current = v.currentTime;
    libRef.current.savePosition(video.id, v.currentTime, v.duration);
  };

  /** Plays; when sound is refused (NotAllowedError) plays muted and asks to unmute. */
  const start = async () => {
    const v = el();
    try {
      await v.play();
    } catch (error) {
      // AbortError: interrupted by a pause or a new load; NotSupportedError: the `error` event handles it.
      if ((error as DOMException)?.name !== "NotAllowedError") return;
      if (v.muted) {
        console.info("浏览器阻止了自动播放，请点击播放", error);
        return;
      }
      v.muted = true;
      try {
        await v.play();
        setNeedsUnmute(true);
      } catch (again) {
        v.muted = false;
        console.info("浏览器阻止了自动播放，请点击播放", again);
      }
    }
  };

  const goToRandomVideo = (replace: boolean) => {
    navigate(`/video/${randomOtherVideo(video.id).id}`, { replace });
  };

  const onError = () => {
    if (errorHandled.current) return;
    const error = videoRef.current?.error;
    console.error(`视频播放失败：${video.videoFile}`, error ? `(${error.code}) ${error.message}` : "");
    errorHandled.current = true;
    if (recordFailure() >= MAX_FAILURES) setFailed(true);
    else goToRandomVideo(true);
  };

  const retry = () => {
    resetFailures();
    errorHandled.current = false;
    setFailed(false);
    el().load();
    void start();
  };

  const togglePlay = () => {
    const v = el();
    if (v.paused || v.ended) void start();
    else v.pause();
  };

  const restart = () => {
    el().currentTime = 0;
    void start();
  };

  const seek = (t: number) => {
    const v = el();
    const end = Number.isFinite(v.duration) ? v.duration : 0;
    v.currentTime = clamp(t, 0, end);
    setTime(v.currentTime);
  };

  const setVolume = (x: number, mute = x === 0) => {
    const v = el();
    const next = Math.round(clamp(x, 0, 1) * 10) / 10;
    v.volume = next;
    v.muted = mute || next === 0;
    if (!v.muted) setNeedsUnmute(false);
    libRef.current.setPrefs({ volume: next, muted: v.muted });
  };

  const toggleMute = () => {
    const v = el();
    if (v.muted || v.volume === 0) setVolume(v.volume || DEFAULT_PREFS.volume, false);
    else setVolume(v.volume, true);
  };

  const changeRate = (r: number) => {
    const v = el();
    v.defaultPlaybackRate = r;
    v.playbackRate = r;
    libRef.current.setPrefs({ rate: r });
  };

  const toggleFullscreen = () => {
    const box = boxRef.current as HTMLDivElement & { webkitEnterFullscreen?: never };
    const v = el() as HTMLVideoElement & { webkitEnterFullscreen?: () => void };
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else if (document.fullscreenEnabled) box.requestFullscreen().catch((error) => console.warn("无法进入全屏", error));
    else v.webkitEnterFullscreen?.(); // iPhone Safari: only the video itself goes full screen
  };

  const togglePip = () => {
    if (document.pictureInPictureElement) void document.exitPictureInPicture().catch(() => {});
    else el().requestPictureInPicture().catch((error) => console.warn("无法开启画中画", error));
  };

  usePlayerKeyboard((command: PlayerCommand) => {
    const v = el();
    show();
    if (command === "toggle") togglePlay();
    else if (command === "back") seek(v.currentTime - SEEK_STEP);
    else if (command === "forward") seek(v.currentTime + SEEK_STEP);
    else if (command === "volumeUp") setVolume(v.volume + VOLUME_STEP);
    else if (command === "volumeDown") setVolume(v.volume - VOLUME_STEP, v.muted);
    else if (command === "mute") toggleMute();
    else toggleFullscreen();
  });

  // Once mounted: catch up with what the element did before hydration, follow fullscreen, save on leaving.
  useEffect(() => {
    const v = el();
    setPip(document.pictureInPictureEnabled === true && !v.disablePictureInPicture);
    if (Number.isFinite(v.duration)) setDuration(v.duration);
    if (v.error) onError();
    const onFullscreen = () => setFullscreen(document.fullscreenElement === boxRef.current);
    const onPageHide = () => savePosition(v);
    document.addEventListener("fullscreenchange", onFullscreen);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      document.removeEventListener("fullscreenchange", onFullscreen);
      window.removeEventListener("pagehide", onPageHide);
      savePosition(v);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per player
  }, []);

  // When the stored preferences are known: apply them, offer the saved position, start playing.
  useEffect(() => {
    if (!lib.ready || started.current) return;
    started.current = true;
    const v = el();
    v.volume = lib.prefs.volume;
    v.muted = lib.prefs.muted;
    v.defaultPlaybackRate = lib.prefs.rate;
    v.playbackRate = lib.prefs.rate;
    setResumeAt(resumePosition(lib.library, video.id));
    if (!errorHandled.current) void start();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when ready
  }, [lib.ready]);

  useEffect(() => {
    if (resumeAt === null) return;
    const timer = setTimeout(() => setResumeAt(null), RESUME_PROMPT_MS);
    return () => clearTimeout(timer);
  }, [resumeAt]);

  const sync = () => {
    const v = el();
    setTime(v.currentTime);
    if (Number.isFinite(v.duration)) setDuration(v.duration);
  };

  const state = failed ? "failed" : playing ? "playing" : "paused";
  return (
    <div
      ref={boxRef}
      className="player"
      data-state={state}
      data-controls={visible || !playing ? "shown" : "hidden"}
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
        src={video.videoFile}
        poster={poster}
        preload="metadata"
        playsInline
        width={COVER_WIDTH}
        height={COVER_HEIGHT}
        onPointerDown={(e) => {
          revealOnly.current = e.pointerType !== "mouse" && !visible && playing;
        }}
        onClick={() => {
          if (!revealOnly.current) togglePlay();
        }}
        onDoubleClick={toggleFullscreen}
        onPlay={() => setPlaying(true)}
        onPause={(e) => {
          setPlaying(false);
          savePosition(e.currentTarget);
        }}
        onPlaying={() => {
          resetFailures();
          setFailed(false);
        }}
        onTimeUpdate={(e) => {
          sync();
          if (Math.abs(e.currentTarget.currentTime - lastSaved.current) >= SAVE_EVERY) savePosition(e.currentTarget);
        }}
        onSeeking={sync}
        onDurationChange={sync}
        onLoadedMetadata={sync}
        onVolumeChange={(e) => {
          setMuted(e.currentTarget.muted);
          setVolumeState(e.currentTarget.volume);
        }}
        onRateChange={(e) => setRate(e.currentTarget.playbackRate)}
        onEnded={(e) => {
          savePosition(e.currentTarget);
          setResumeAt(null);
          goToRandomVideo(false);
        }}
        onError={onError}
      />
      {lib.ready && !playing && !failed ? (
        <div className="player-big-play" aria-hidden="true">
          <Icon name="play" size={40} />
        </div>
      ) : null}
      {needsUnmute && muted ? (
        <button type="button" className="player-prompt player-unmute" onClick={() => setVolume(el().volume || DEFAULT_PREFS.volume, false)}>
          <Icon name="muted" size={20} />
          点击开启声音
        </button>
      ) : null}
      {resumeAt !== null && !failed ? (
        <button
          type="button"
          className="player-prompt player-resume"
          onClick={() => {
            seek(resumeAt);
            setResumeAt(null);
            if (el().paused) void start();
          }}
        >
          {`从 ${formatTime(resumeAt)} 继续播放`}
        </button>
      ) : null}
      {failed ? (
        <div className="player-error" role="alert">
          <p>视频加载失败，请稍后重试</p>
          <button type="button" className="button button-primary" onClick={retry}>
            重试
          </button>
        </div>
      ) : null}
      <PlayerControls
        playing={playing}
        muted={muted}
        volume={volume}
        time={time}
        duration={duration}
        rate={rate}
        fullscreen={fullscreen}
        pip={pip}
        onTogglePlay={togglePlay}
        onRestart={restart}
        onToggleMute={toggleMute}
        onVolume={(x) => setVolume(x)}
        onSeek={seek}
        onRate={changeRate}
        onTogglePip={togglePip}
        onToggleFullscreen={toggleFullscreen}
      />
    </div>
  );
}
