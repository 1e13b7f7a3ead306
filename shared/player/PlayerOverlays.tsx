import { OUTAGE_TEXT } from "../playback/media-outage";
import { formatTime } from "../format";
import { Icon } from "./icons";
import type { GestureHint } from "./useTouchGestures";

/** The round play sign in the middle while paused (decorative: the bar has the real button). */
export function BigPlay() {
  return (
    <div className="player-big-play" aria-hidden="true">
      <Icon name="play" size={40} />
    </div>
  );
}

/** Shown while playback waits for data. */
export function Spinner() {
  return <div className="player-spinner" role="status" aria-label="正在缓冲" />;
}

/** The subtitle lines active now (drawn by the player so they fit phones and fullscreen). */
export function SubtitleText({ text }: { text: string }) {
  if (!text) return null;
  return (
    <div className="player-subtitle" aria-live="off">
      {text.split("\n").map((line, i) => (
        <span key={i}>{line}</span>
      ))}
    </div>
  );
}

/** 已切换到线路2: the player moved to another line by itself. */
export function LineNotice({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <div className="player-notice" role="status">
      {text}
    </div>
  );
}

/** 快进 10 秒 / 快退 10 秒 / 2× 倍速播放中 after a touch gesture. */
export function GestureHintView({ hint }: { hint: GestureHint | null }) {
  if (!hint) return null;
  return (
    <div key={hint.id} className={`player-hint player-hint-${hint.side}`} role="status">
      {hint.text}
    </div>
  );
}

export function UnmutePrompt({ onUnmute }: { onUnmute: () => void }) {
  return (
    <button type="button" className="player-prompt player-unmute" onClick={onUnmute}>
      <Icon name="muted" size={20} />
      点击开启声音
    </button>
  );
}

export function ResumePrompt({ at, onResume }: { at: number; onResume: () => void }) {
  return (
    <button type="button" className="player-prompt player-resume" onClick={onResume}>
      {`从 ${formatTime(at)} 继续播放`}
    </button>
  );
}

export function PlaybackError({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="player-error" role="alert">
      <p>视频加载失败，请稍后重试</p>
      <button type="button" className="button button-primary" onClick={onRetry}>
        重试
      </button>
    </div>
  );
}

/** 加载失败，点击重试: the media is down for now; the player retries by itself too (usePlaybackFailure.ts). */
export function MediaOutage({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="player-error player-outage" role="alert">
      <button type="button" className="button button-primary" onClick={onRetry}>
        {OUTAGE_TEXT}
      </button>
    </div>
  );
}

/** 跳过片头 while the intro plays (useIntroOutro.ts). */
export function SkipIntroPrompt({ onSkip }: { onSkip: () => void }) {
  return (
    <button type="button" className="player-prompt player-skip" onClick={onSkip}>
      跳过片头
    </button>
  );
}

/** 即将播放下一集 N with 取消, in the outro with 自动连播 on (useIntroOutro.ts). */
export function NextEpisodeCountdown({ seconds, onCancel }: { seconds: number; onCancel: () => void }) {
  return (
    <div className="player-prompt player-next" role="status">
      <span>{`即将播放下一集 ${seconds}`}</span>
      <button type="button" className="player-next-cancel" onClick={onCancel}>
        取消
      </button>
    </div>
  );
}

/** 投屏: top right, as phone players put it (the bar is full on a phone); only where the browser can cast. */
export function CastButton({ onCast }: { onCast: () => void }) {
  return (
    <button type="button" className="player-button player-cast" aria-label="投屏" title="投屏" onClick={onCast}>
      <Icon name="cast" />
    </button>
  );
}
