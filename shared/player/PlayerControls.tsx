import type { CSSProperties } from "react";
import { clockText, fullscreenLabel, muteLabel, playLabel, withKey } from "../playback/control-labels";
import { PLAYBACK_RATES, type QualityChoice } from "../library";
import type { PlayLine } from "../playback/lines";
import { SUBTITLE_NAMES, type SubtitleLanguage } from "../stream/contract";
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
  /** The 字幕 language shown, null while off. */
  subtitles: SubtitleLanguage | null;
  /** The media's subtitle languages (the 字幕 menu's choices after 关闭). */
  subtitleLanguages: readonly SubtitleLanguage[];
  /** 线路: a menu only when there is more than one. */
  lines: readonly PlayLine[];
  line: number;
  onTogglePlay: () => void;
  onRestart: () => void;
  onToggleMute: () => void;
  onVolume: (volume: number) => void;
  onSeek: (time: number) => void;
  onRate: (rate: number) => void;
  onQuality: (choice: QualityChoice) => void;
  onSubtitles: (choice: SubtitleLanguage | "off") => void;
  onLine: (index: number) => void;
  onTogglePip: () => void;
  onToggleFullscreen: () => void;
  onPreviewWanted: () => void;
  cueAt: (time: number) => StoryboardCue | null;
}

const rateLabel = (rate: number) => `${rate}×`;
const RATE_ITEMS = PLAYBACK_RATES.map((r) => ({ value: r, label: rateLabel(r) }));
const SUBTITLES_OFF = "关闭";

/** The bar over the bottom of the player: progress with seek preview, then the buttons. */
export function PlayerControls(p: PlayerControlsProps) {
  const shownVolume = p.muted ? 0 : p.volume;
  const qualityItems: { value: QualityChoice; label: string }[] = [
    ...[...p.levels].reverse().map((l) => ({ value: l.height, label: levelLabel(l.height) })),
    { value: "auto", label: autoLabel(p.quality === "auto" ? p.height : null) },
  ];
  const qualityNow = p.quality === "auto" ? autoLabel(p.height) : levelLabel(p.quality);
  const subtitleItems: { value: SubtitleLanguage | "off"; label: string }[] = [
    { value: "off", label: SUBTITLES_OFF },
    ...p.subtitleLanguages.map((l) => ({ value: l, label: SUBTITLE_NAMES[l] })),
  ];
  const lineNow = p.lines[p.line]?.name ?? "";
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
        {p.lines.length > 1 ? (
          <MenuButton<number>
            className="player-line"
            label={lineNow}
            ariaLabel={`线路：${lineNow}`}
            title="线路"
            items={p.lines.map((l) => ({ value: l.index, label: l.name }))}
            selected={p.line}
            onSelect={p.onLine}
          />
        ) : null}
        {p.subtitleLanguages.length > 0 ? (
          <MenuButton<SubtitleLanguage | "off">
            className="player-subtitles"
            label={<Icon name="subtitles" />}
            ariaLabel={`字幕：${p.subtitles ? SUBTITLE_NAMES[p.subtitles] : SUBTITLES_OFF}`}
            title="字幕 (C)"
            items={subtitleItems}
            selected={p.subtitles ?? "off"}
            onSelect={p.onSubtitles}
          />
        ) : null}
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
