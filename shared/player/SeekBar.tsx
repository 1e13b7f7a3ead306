import { useRef, useState, type CSSProperties, type PointerEvent as ReactPointerEvent } from "react";
import { formatTime } from "../format";
import { clockText } from "../playback/control-labels";
import type { StoryboardCue } from "../stream/storyboard";

export interface SeekBarProps {
  time: number;
  duration: number;
  onSeek: (time: number) => void;
  /** Starts loading the storyboard (first hover or touch). */
  onPreviewWanted: () => void;
  /** The storyboard tile of a time, when there is one. */
  cueAt: (time: number) => StoryboardCue | null;
}

interface Preview {
  time: number;
  /** Pointer offset from the bar's left edge and the bar's width (px). */
  x: number;
  width: number;
}

/** Width of the time-only preview (no storyboard tile), to keep it inside the bar. */
const TIME_ONLY_WIDTH = 64;

/**
 * The progress bar (a native range input: keyboard and screen readers work) with the seek
 * preview: hovering, or dragging with a finger, shows the storyboard thumbnail and the time.
 */
export function SeekBar({ time, duration, onSeek, onPreviewWanted, cueAt }: SeekBarProps) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const percent = duration > 0 ? Math.min(100, (time / duration) * 100) : 0;

  const track = (e: ReactPointerEvent<HTMLDivElement>) => {
    const box = wrap.current?.getBoundingClientRect();
    if (!box || !(duration > 0) || box.width === 0) return;
    const x = Math.min(box.width, Math.max(0, e.clientX - box.left));
    setPreview({ time: (x / box.width) * duration, x, width: box.width });
  };
  const touching = (e: ReactPointerEvent) => e.pointerType !== "mouse" && e.buttons > 0;

  const cue = preview ? cueAt(preview.time) : null;
  const boxWidth = cue ? cue.w : TIME_ONLY_WIDTH;
  const left = preview ? Math.min(preview.width - boxWidth, Math.max(0, preview.x - boxWidth / 2)) : 0;
  return (
    <div
      ref={wrap}
      className="player-seek"
      onPointerEnter={onPreviewWanted}
      onPointerDown={(e) => {
        onPreviewWanted();
        track(e);
      }}
      onPointerMove={(e) => {
        if (e.pointerType === "mouse" || touching(e)) track(e);
      }}
      onPointerLeave={(e) => {
        if (e.pointerType === "mouse") setPreview(null);
      }}
      onPointerUp={(e) => {
        if (e.pointerType !== "mouse") setPreview(null);
      }}
      onPointerCancel={() => setPreview(null)}
    >
      {preview ? (
        <div className="player-preview" style={{ left, width: boxWidth }} aria-hidden="true">
          {cue ? (
            <div
              className="player-preview-image"
              style={{ width: cue.w, height: cue.h, backgroundImage: `url("${cue.url}")`, backgroundPosition: `-${cue.x}px -${cue.y}px` }}
            />
          ) : null}
          <span className="player-preview-time">{formatTime(preview.time)}</span>
        </div>
      ) : null}
      <input
        type="range"
        className="player-range player-progress"
        aria-label="播放进度"
        min={0}
        max={duration || 0}
        // "any": a drag or a click lands on any time (a 1 % grid snapped a 2-hour film to 72 s, and
        // with a float duration such as 11.999999 Chromium's arrow key could even step back onto
        // the grid); the arrow keys still move by 1 % of the range.
        step="any"
        value={Math.min(time, duration || 0)}
        aria-valuetext={clockText(time, duration)}
        style={{ "--fill": `${percent}%` } as CSSProperties}
        onChange={(e) => onSeek(Number(e.currentTarget.value))}
      />
    </div>
  );
}
