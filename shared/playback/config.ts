/**
 * Every tunable of the player in one place, each with its default (hooks and the stream engine
 * read this object; nothing else hard-codes these numbers).
 */
export const playerConfig = {
  /** Controls hide this long after the last mouse movement while playing (spec §9). */
  hideDelayMs: 3000,
  /** ←/→ and double-tap seek this many seconds. */
  seekStep: 10,
  /** ↑/↓ change the volume by this much (spec §9). */
  volumeStep: 0.1,
  /** The position is saved at least this often while playing (seconds of playback). */
  saveEverySeconds: 5,
  /** The resume prompt goes away by itself after this long. */
  resumePromptMs: 12_000,
  /** Two taps closer than this are a double tap. */
  doubleTapMs: 300,
  /** A touch held this long without moving is a long press (plays at longPressRate while held). */
  longPressMs: 500,
  longPressRate: 2,
  /** A touch that moves further than this (px) is neither a tap nor a long press. */
  touchSlopPx: 12,
  /** Gesture hints (快进 10 秒 …) stay this long. */
  hintMs: 700,
  hls: {
    /** Forward buffer before the first frame: short, so the first segment alone can start playback. */
    startBufferSeconds: 6,
    /** Forward buffer once playing: long enough to ride out a slow patch on a phone link. */
    playingBufferSeconds: 30,
    /** hls.js never buffers past this. */
    maxBufferSeconds: 60,
    /** Played media kept behind the playhead (quick back-seeks, bounded memory on phones). */
    backBufferSeconds: 30,
    /**
     * hls.js's bandwidth estimate before it has measured a segment, when the browser gives none
     * (bits/s; navigator.connection otherwise). 自动 starts on the lowest rung either way
     * (hls-playback.ts); this decides the first step up.
     */
    defaultEstimateBps: 400_000,
    /**
     * Where hls.js plays, it starts before the page's own JavaScript (hls-start-boot.ts), and the
     * page's modules follow once the video plays with this many seconds buffered ahead (or two
     * segments are in while autoplay is refused): ~200 KB of modules after a single 2 s segment
     * would hold up the next segments on a slow link (scripts go before media).
     */
    earlyStartBufferSeconds: 4,
    /** Segments in before the page's modules follow when the video does not start by itself. */
    earlyStartSegments: 2,
  },
} as const;
