import { START_RENDITION_HEIGHT } from "../../shared/stream/contract";

/**
 * The rendition ladder (docs/media-pipeline.md): H.264 + AAC-LC per rung, capped CRF (a quality
 * target with maxrate/bufsize so no 2 s segment exceeds the rung's budget), fixed closed GOPs of
 * exactly one segment so every rendition has keyframes at the same times.
 */

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
}

/**
 * 270p fits a 0.75 Mbit/s 3G link with its audio; 360p 0.6–0.8, 720p 2–2.5, 1080p 4.5–5 Mbit/s
 * at their caps (video maxrate + audio + ~3 % CMAF overhead). 360p and 720p share one 96 kbit/s
 * audio encode (the packer encodes each distinct audio bitrate once).
 */
export const LADDER: readonly Rung[] = [
  { height: START_RENDITION_HEIGHT, width: 480, crf: 26, maxrateKbps: 280, bufsizeKbps: 280, audioKbps: 48, profile: "main", level: "3.0" },
  { height: 360, width: 640, crf: 24, maxrateKbps: 620, bufsizeKbps: 620, audioKbps: 96, profile: "main", level: "3.0" },
  { height: 720, width: 1280, crf: 24, maxrateKbps: 2200, bufsizeKbps: 2200, audioKbps: 96, profile: "high", level: "3.1" },
  { height: 1080, width: 1920, crf: 23, maxrateKbps: 4500, bufsizeKbps: 4500, audioKbps: 128, profile: "high", level: "4.0" },
];

/** Rungs for a source: never upscale (a 720p source gets 270/360/720); a source below 270p still gets one rung at its own height. */
export function laddersFor(sourceHeight: number, ladder: readonly Rung[] = LADDER): Rung[] {
  const fit = ladder.filter((r) => r.height <= sourceHeight);
  if (fit.length > 0) return fit;
  const width = 2 * Math.round((sourceHeight * 16) / 9 / 2);
  return [{ ...ladder[0], height: sourceHeight, width }];
}

export interface EncodeSettings {
  /** Segment (and GOP) length in seconds. */
  segmentSeconds: number;
  /** x264 preset (speed/size trade-off). */
  preset: string;
  /**
   * How full the VBV buffer is at the start (x264 vbv-init, 0–1). x264's 0.9 lets the first
   * segment spend nearly a whole buffer on top of the cap: the 270p rung's first segment was
   * 23 % bigger than the others, on 3G 0.17 s more before the first frame. At 0.5 it is about
   * the size of the rest (docs/media-pipeline.md).
   */
  vbvInit: number;
}

export const DEFAULT_ENCODE: EncodeSettings = { segmentSeconds: 2, preset: "superfast", vbvInit: 0.5 };

/** x264 arguments of one rung. */
export function videoArgs(rung: Rung, fps: number, settings: EncodeSettings): string[] {
  const gop = Math.round(fps * settings.segmentSeconds);
  return [
    "-c:v",
    "libx264",
    "-preset",
    settings.preset,
    "-profile:v",
    rung.profile,
    "-level:v",
    rung.level,
    "-pix_fmt",
    "yuv420p",
    "-crf",
    String(rung.crf),
    "-maxrate",
    `${rung.maxrateKbps}k`,
    "-bufsize",
    `${rung.bufsizeKbps}k`,
    // Fixed closed GOP = one segment: keyframes at the same times in every rendition.
    "-g",
    String(gop),
    "-keyint_min",
    String(gop),
    "-sc_threshold",
    "0",
    "-x264-params",
    `scenecut=0:open-gop=0:keyint=${gop}:min-keyint=${gop}:vbv-init=${settings.vbvInit}`,
  ];
}

/** AAC-LC stereo 48 kHz at a bitrate (encoded once per distinct bitrate and copied into each rendition). */
export function audioArgs(kbps: number): string[] {
  return ["-c:a", "aac", "-b:a", `${kbps}k`, "-ac", "2", "-ar", "48000"];
}
