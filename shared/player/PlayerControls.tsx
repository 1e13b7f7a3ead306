import type { CSSProperties } from "react";
import { clockText, fullscreenLabel, muteLabel, playLabel, withKey } from "../playback/control-labels";
import { PLAYBACK_RATES, type QualityChoice } from "../library";
import type { StoryboardCue } from "../stream/storyboard";
import { Icon } from "./icons";
import { MenuButton } from "./MenuButton";
import { autoLabel, choiceLabel, levelLabel, type Level } from "../playback/quality";
import { SeekBar } from "./SeekBar";

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
  /** Renditions, lowest first (empty until the master playlist is read). */
  levels: readonly Level[];
  /** False once playback fell back to the progressive file: no 清晰度 menu then. */
  adaptive: boolean;
  quality: QualityChoice;
  /** Height playing now (for 自动(720P)). */
  height: number | null;
  subtitles: boolean;
  onTogglePlay: () => void;
  onRestart: () => void;
  onToggleMute: () => void;
  onVolume: (volume: number) => void;
  onSeek: (time: number) => void;
  onRate: (rate: number) => void;
  onQuality: (choice: QualityChoice) => void;
  onToggleSubtitles: () => void;
  onTogglePip: () => void;
  onToggleFullscreen: () => void;
  onPreviewWanted: () => void;
  cueAt: (time: number) => StoryboardCue | null;
}

const rateLabel = (rate: number) => `${rate}×`;
const RATE_ITEMS = PLAYBACK_RATES.map((r) => ({ value: r, label: rateLabel(r) }));

/** The bar over the bottom of the player: progress with seek preview, then the buttons. */
export function PlayerControls(p: PlayerControlsProps) {
  const shownVolume = p.muted ? 0 : p.volume;
  const qualityItems: { value: QualityChoice; label: string }[] = [
    ...[...p.levels].reverse().map((l) => ({ value: l.height, label: levelLabel(l.height) })),
    { value: "auto", label: autoLabel(p.quality === "auto" ? p.height : null) },
  ];
  const qualityNow = p.quality === "auto" ? autoLabel(p.height) : levelLabel(p.quality);
  return (
    <div className="player-controls">
      <SeekBar time={p.time} duration={p.duration} onSeek={p.onSeek} onPreviewWanted={p.onPreviewWanted} cueAt={p.cueAt} />
      <div className="player-bar">
        <button
          type="button"
          className="player-button"
          data-act="play"
          aria-label={playLabel(p.playing)}
          title={withKey(playLabel(p.playing), "K")}
          onClick={p.onTogglePlay}
        >
          <Icon name={p.playing ? "pause" : "play"} />
        </button>
        <button type="button" className="player-button player-restart" data-act="restart" aria-label="重新播放" title="重新播放" onClick={p.onRestart}>
          <Icon name="restart" />
        </button>
        <div className="player-volume">
          <button
            type="button"
            className="player-button"
            data-act="mute"
            aria-label={muteLabel(p.muted)}
            title={withKey(muteLabel(p.muted), "M")}
            onClick={p.onToggleMute}
          >
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
        {/* The early controls keep this clock before the player hydrates (client/inline/early-controls.ts). */}
        <span className="player-time" suppressHydrationWarning>
          {clockText(p.time, p.duration)}
        </span>
        <span className="player-spacer" />
        <MenuButton
          className="player-speed"
          label={rateLabel(p.rate)}
          ariaLabel={`倍速 ${rateLabel(p.rate)}`}
          title="播放速度"
          items={RATE_ITEMS}
          selected={p.rate}
          onSelect={p.onRate}
        />
        {/* Rendered from the server on, so the bar does not shift when the renditions become known. */}
        {p.adaptive ? (
          <MenuButton<QualityChoice>
            className="player-quality"
            label={choiceLabel(p.quality)}
            ariaLabel={`清晰度：${qualityNow}`}
            title="清晰度"
            items={qualityItems}
            selected={p.quality}
            onSelect={p.onQuality}
          />
        ) : null}
        <button
          type="button"
          className="player-button player-subtitles"
          aria-label="字幕"
          aria-pressed={p.subtitles}
          title={p.subtitles ? "关闭字幕 (C)" : "开启字幕 (C)"}
          onClick={p.onToggleSubtitles}
        >
          <Icon name="subtitles" />
        </button>
        {p.pip ? (
          <button type="button" className="player-button player-pip" aria-label="画中画" title="画中画" onClick={p.onTogglePip}>
            <Icon name="pip" />
          </button>
        ) : null}
        <button
          type="button"
          className="player-button"
          data-act="fullscreen"
          aria-label={fullscreenLabel(p.fullscreen)}
          title={withKey(fullscreenLabel(p.fullscreen), "F")}
          onClick={p.onToggleFullscreen}
        >
          <Icon name={p.fullscreen ? "exitFullscreen" : "fullscreen"} />
        </button>
      </div>
    </div>
  );
}
