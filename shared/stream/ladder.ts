/**
 * The rendition ladder (docs/media-pipeline.md), shared by both packers — the CLI's ffmpeg/x264
 * one (scripts/media/ladder.ts adds its encoder arguments) and the 管理后台's browser one — so both
 * make exactly the same rungs: H.264 + AAC-LC per rung, capped bitrate, never upscaled, the start
 * rung's light start (docs/decisions/0021-light-start.md).
 */
import { START_RENDITION_HEIGHT } from "./contract";

export interface Rung {
  height: number;
  width: number;
  /** x264 quality target; the cap below bounds the bitrate of hard scenes. */
  crf: number;
  /** VBV maxrate and bufsize, kbit/s and kbit. */
  maxrateKbps: number;
  bufsizeKbps: number;
  audioKbps: number;
  profile: "main" | "high";
  level: string;
  /** The start rung only: a lighter start, see LightStart. */
  lightStart?: LightStart;
}

/**
 * The start rung's segments `segments` encoded again at a lower cap, and put in place of the
 * rung's own when the two encodes agree (same decoder configuration, same segment times). Chromium's
 * own HLS shows its first frame only once the second segment is in, and the page's JavaScript shares
 * the link with the third: lighter segments 1 and 2 bring both sooner on a slow link. Segment 0
 * stays at the full cap, because Chromium measures the link on it: a light first segment looked
 * like a faster link and made it take 360p for the second, later first frame
 * (docs/decisions/0021-light-start.md).
 */
export interface LightStart {
  segments: readonly number[];
  maxrateKbps: number;
}

/**
 * 270p fits a 0.75 Mbit/s 3G link with its audio; 360p 0.6–0.8, 720p 2–2.5, 1080p 4.5–5 Mbit/s
 * at their caps (video maxrate + audio + ~3 % CMAF overhead). 360p and 720p share one 96 kbit/s
 * audio encode (the packer encodes each distinct audio bitrate once). 270p's cap was measured
 * against 200 kbit/s and kept: a lower one starts 3G sooner but costs its picture all along, and
 * made slow 4G's first frame later at times (docs/decisions/0019-start-rung-cap.md). Its segments
 * 1 and 2 are lighter (LightStart).
 */
export const LADDER: readonly Rung[] = [
  {
    height: START_RENDITION_HEIGHT,
    width: 480,
    crf: 26,
    maxrateKbps: 280,
    bufsizeKbps: 280,
    audioKbps: 48,
    profile: "main",
    level: "3.0",
    lightStart: { segments: [1, 2], maxrateKbps: 140 },
  },
  { height: 360, width: 640, crf: 24, maxrateKbps: 620, bufsizeKbps: 620, audioKbps: 96, profile: "main", level: "3.0" },
  { height: 720, width: 1280, crf: 24, maxrateKbps: 2200, bufsizeKbps: 2200, audioKbps: 96, profile: "high", level: "3.1" },
  { height: 1080, width: 1920, crf: 23, maxrateKbps: 4500, bufsizeKbps: 4500, audioKbps: 128, profile: "high", level: "4.0" },
];

/**
 * Every rung's audio, from either packer: AAC-LC, stereo, 48 kHz, at the rung's `audioKbps` (the
 * CLI's `-ac 2 -ar 48000`, its silence for a source without audio too; the browser packer's
 * re-encode, docs/decisions/0082-browser-upload-audio.md). A copied AAC source keeps its own.
 */
export const AAC_CHANNELS = 2;
export const AAC_SAMPLE_RATE = 48000;

/** Rungs for a source: never upscale (a 720p source gets 270/360/720); a source below 270p still gets one rung at its own height. */
export function laddersFor(sourceHeight: number, ladder: readonly Rung[] = LADDER): Rung[] {
  const fit = ladder.filter((r) => r.height <= sourceHeight);
  if (fit.length > 0) return fit;
  const width = 2 * Math.round((sourceHeight * 16) / 9 / 2);
  return [{ ...ladder[0], height: sourceHeight, width }];
}

/** The rung as its light start is encoded (the light cap for maxrate and buffer, no light start of its own), or null without one. */
export function lightStartRung(rung: Rung): Rung | null {
  const { lightStart, ...rest } = rung;
  return lightStart ? { ...rest, maxrateKbps: lightStart.maxrateKbps, bufsizeKbps: lightStart.maxrateKbps } : null;
}

/** Seconds of video the light start encodes: through the end of its last segment. */
export function lightStartSeconds(light: LightStart, segmentSeconds: number): number {
  return (Math.max(...light.segments) + 1) * segmentSeconds;
}
