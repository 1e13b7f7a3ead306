import { useEffect, useRef, useState, type CSSProperties } from "react";
import { formatTime } from "../../format";
import { PLAYBACK_RATES } from "../../library";
import { Icon } from "./icons";

export interface PlayerControlsProps {
  playing: boolean;
  muted: boolean;
  volume: number;
  time: number;
  duration: number;
  rate: number;
  fullscreen: boolean;
  /** Decided after hydration (document.pictureInPictureEnabled). */
  pip: boolean;
  onTogglePlay(): void;
  onRestart(): void;
  onToggleMute(): void;
  onVolume(volume: number): void;
  onSeek(time: number): void;
  onRate(rate: number): void;
  onTogglePip(): void;
  onToggleFullscreen(): void;
}

const rateLabel = (rate: number) => `${rate}×`;

/** The bar over the bottom of the player: progress, then the buttons. */
export function PlayerControls(p: PlayerControlsProps) {
  const [speedOpen, setSpeedOpen] = useState(false);
  const speedRef = useRef<HTMLDivElement>(null);

  // The speed menu closes on a press anywhere else.
  useEffect(() => {
    if (!speedOpen) return;
    const close = (event: PointerEvent) => {
      if (!speedRef.current?.contains(event.target as Node)) setSpeedOpen(false);
    };
    document.addEventListener("pointerdown", close);
    return () => document.removeEventListener("pointerdown", close);
  }, [speedOpen]);

  const percent = p.duration > 0 ? Math.min(100, (p.time / p.duration) * 100) : 0;
  const shownVolume = p.muted ? 0 : p.volume;
  return (
    <div className="player-controls">
      <input
        type="range"
        className="player-range player-progress"
        aria-label="播放进度"
        min={0}
        max={p.duration || 0}
        step={p.duration > 0 ? p.duration * 0.01 : 1}
        value={Math.min(p.time, p.duration || 0)}
        aria-valuetext={`${formatTime(p.time)} / ${formatTime(p.duration)}`}
        style={{ "--fill": `${percent}%` } as CSSProperties}
        onChange={(e) => p.onSeek(Number(e.currentTarget.value))}
      />
      <div className="player-bar">
        <button type="button" className="player-button" aria-label={p.playing ? "暂停" : "播放"} title={p.playing ? "暂停 (K)" : "播放 (K)"} onClick={p.onTogglePlay}>
          <Icon name={p.playing ? "pause" : "play"} />
        </button>
        <button type="button" className="player-button" aria-label="重新播放" title="重新播放" onClick={p.onRestart}>
          <Icon name="restart" />
        </button>
        <div className="player-volume">
          <button type="button" className="player-button" aria-label={p.muted ? "取消静音" : "静音"} title={p.muted ? "取消静音 (M)" : "静音 (M)"} onClick={p.onToggleMute}>
            <Icon name={p.muted || p.volume === 0 ? "muted" : "volume"} />
          </button>
          <input
            type="range"
            className="player-range player-volume-range"
            aria-label="音量"
            min={0}
            max={1}
            step={0.1}
            value={shownVolume}
            aria-valuetext={`${Math.round(shownVolume * 100)}%`}
            style={{ "--fill": `${shownVolume * 100}%` } as CSSProperties}
            onChange={(e) => p.onVolume(Number(e.currentTarget.value))}
          />
        </div>
        <span className="player-time">{`${formatTime(p.time)} / ${formatTime(p.duration)}`}</span>
        <span className="player-spacer" />
        <div
          className="player-speed"
          ref={speedRef}
          onKeyDown={(e) => {
            if (e.key === "Escape" && speedOpen) {
              e.stopPropagation();
              setSpeedOpen(false);
              speedRef.current?.querySelector("button")?.focus();
            }
          }}
        >
          <button type="button" className="player-button player-rate" aria-label={`倍速 ${rateLabel(p.rate)}`} title="倍速" aria-expanded={speedOpen} aria-controls={speedOpen ? "player-speed-menu" : undefined} onClick={() => setSpeedOpen(!speedOpen)}>
            {rateLabel(p.rate)}
          </button>
          {speedOpen ? (
            <div className="player-speed-menu" id="player-speed-menu" role="group" aria-label="播放速度">
              {PLAYBACK_RATES.map((r) => (
                <button
                  key={r}
                  type="button"
                  aria-pressed={r === p.rate}
                  onClick={() => {
                    p.onRate(r);
                    setSpeedOpen(false);
                  }}
                >
                  {rateLabel(r)}
                </button>
              ))}
            </div>
          ) : null}
        </div>
        {p.pip ? (
          <button type="button" className="player-button player-pip" aria-label="画中画" title="画中画" onClick={p.onTogglePip}>
            <Icon name="pip" />
          </button>
        ) : null}
        <button type="button" className="player-button" aria-label={p.fullscreen ? "退出全屏" : "全屏"} title={p.fullscreen ? "退出全屏 (F)" : "全屏 (F)"} onClick={p.onToggleFullscreen}>
          <Icon name={p.fullscreen ? "exitFullscreen" : "fullscreen"} />
        </button>
      </div>
    </div>
  );
}
