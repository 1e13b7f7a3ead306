/**
 * The CLI packer's encoder settings for the shared ladder (shared/stream/ladder.ts): capped CRF (a
 * quality target with maxrate/bufsize so no 2 s segment exceeds the rung's budget), fixed closed
 * GOPs of exactly one segment so every rendition has keyframes at the same times.
 */
import { AAC_CHANNELS, AAC_SAMPLE_RATE, type Rung } from "../../shared/stream/ladder";

export { LADDER, laddersFor, lightStartRung, lightStartSeconds, type Rung } from "../../shared/stream/ladder";

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
  return ["-c:a", "aac", "-b:a", `${kbps}k`, "-ac", String(AAC_CHANNELS), "-ar", String(AAC_SAMPLE_RATE)];
}
