/**
 * 片头 / 片尾 found from audio (docs/decisions/0093-intro-detection.md): a small chromaprint-like
 * fingerprint of mono PCM (one 32-bit code per 0.1 s: which of 17 log-spaced bands is louder than
 * its neighbour, and which grew since the frame before), and the longest stretch two episodes
 * share near their starts (the opening) or their ends (the ending), as Jellyfin's intro-skipper
 * does with chromaprint. Pure: each packer decodes the PCM and calls this — the CLI with ffmpeg
 * (`npm run catalogue -- add`, scripts/media/intro-detect.ts), the browser with WebCodecs
 * (client/admin/packer/audio-fingerprint.ts, docs/decisions/0099-browser-intro-detection.md).
 */

/** Sample rate the fingerprint expects (ffmpeg -ar 8000 -ac 1 -f f32le). */
export const FINGERPRINT_RATE = 8000;
const FRAME = 2048;
/** One code every 0.1 s. */
export const HOP_SECONDS = 0.1;
const HOP = FINGERPRINT_RATE * HOP_SECONDS;
const BANDS = 17;
/** Two codes match when at most this many of their 32 bits differ. */
const MAX_BIT_ERRORS = 8;
/** A shared stretch shorter than this is not an opening or an ending. */
export const MIN_SHARED_SECONDS = 5;
/** Matching frames may be interrupted by this many that do not match (noise, a louder line). */
const MAX_GAP = 3;

function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = (-2 * Math.PI) / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = Math.cos(angle * k);
        const wi = Math.sin(angle * k);
        const ar = re[i + k + len / 2] * wr - im[i + k + len / 2] * wi;
        const ai = re[i + k + len / 2] * wi + im[i + k + len / 2] * wr;
        re[i + k + len / 2] = re[i + k] - ar;
        im[i + k + len / 2] = im[i + k] - ai;
        re[i + k] += ar;
        im[i + k] += ai;
      }
    }
  }
}

/** Band edges in FFT bins, log-spaced from 100 Hz to 3,800 Hz. */
const EDGES = Array.from({ length: BANDS + 1 }, (_, i) => Math.round((100 * Math.pow(3800 / 100, i / BANDS) * FRAME) / FINGERPRINT_RATE));

/** One code per HOP_SECONDS of `pcm` (mono, FINGERPRINT_RATE). */
export function fingerprint(pcm: Float32Array): Uint32Array {
  const count = Math.max(0, Math.floor((pcm.length - FRAME) / HOP) + 1);
  const codes = new Uint32Array(count);
  const re = new Float64Array(FRAME);
  const im = new Float64Array(FRAME);
  let previous = new Float64Array(BANDS);
  for (let f = 0; f < count; f++) {
    for (let i = 0; i < FRAME; i++) {
      re[i] = pcm[f * HOP + i] * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FRAME));
      im[i] = 0;
    }
    fft(re, im);
    const energy = new Float64Array(BANDS);
    for (let b = 0; b < BANDS; b++) for (let k = EDGES[b]; k < EDGES[b + 1]; k++) energy[b] += re[k] * re[k] + im[k] * im[k];
    let code = 0;
    for (let b = 0; b < BANDS - 1; b++) if (energy[b] > energy[b + 1]) code |= 1 << b;
    for (let b = 0; b < BANDS - 1; b++) if (energy[b] > previous[b]) code |= 1 << (16 + b);
    codes[f] = code >>> 0;
    previous = energy;
  }
  return codes;
}

function bitErrors(a: number, b: number): number {
  let x = (a ^ b) >>> 0;
  let n = 0;
  while (x) {
    x &= x - 1;
    n++;
  }
  return n;
}

export interface SharedStretch {
  /** Seconds in the first episode and in the second. */
  a: { start: number; end: number };
  b: { start: number; end: number };
}

/**
 * The longest stretch of `a[aFrom…aTo)` that also plays in `b[bFrom…bTo)` (at any shift), at least
 * MIN_SHARED_SECONDS long, or null.
 */
export function longestShared(
  a: Uint32Array,
  b: Uint32Array,
  aRange: [number, number] = [0, a.length],
  bRange: [number, number] = [0, b.length],
): SharedStretch | null {
  let best: { length: number; aStart: number; bStart: number } | null = null;
  const [a0, a1] = aRange;
  const [b0, b1] = bRange;
  for (let shift = b0 - a1 + 1; shift < b1 - a0; shift++) {
    const from = Math.max(a0, b0 - shift);
    const to = Math.min(a1, b1 - shift);
    let runStart = -1;
    let lastMatch = -1;
    for (let i = from; i <= to; i++) {
      const matches = i < to && bitErrors(a[i], b[i + shift]) <= MAX_BIT_ERRORS;
      if (matches) {
        if (runStart < 0 || i - lastMatch > MAX_GAP + 1) runStart = i;
        lastMatch = i;
      }
      if (runStart >= 0 && (!matches || i === to - 1)) {
        const length = lastMatch - runStart + 1;
        if (length > (best?.length ?? 0)) best = { length, aStart: runStart, bStart: runStart + shift };
        if (i - lastMatch > MAX_GAP) runStart = -1;
      }
    }
  }
  if (!best || best.length * HOP_SECONDS < MIN_SHARED_SECONDS) return null;
  const seconds = (frame: number) => Math.round(frame * HOP_SECONDS * 10) / 10;
  return {
    a: { start: seconds(best.aStart), end: seconds(best.aStart + best.length) },
    b: { start: seconds(best.bStart), end: seconds(best.bStart + best.length) },
  };
}

/** Where an opening is looked for: this share of the episode from its start (an ending: from its end). */
const SEARCH_SHARE = 0.4;

/** The opening two episodes share (their first 40 %), or null. */
export function sharedIntro(a: Uint32Array, b: Uint32Array): SharedStretch | null {
  return longestShared(a, b, [0, Math.floor(a.length * SEARCH_SHARE)], [0, Math.floor(b.length * SEARCH_SHARE)]);
}

/** The ending two episodes share (their last 40 %), or null. */
export function sharedOutro(a: Uint32Array, b: Uint32Array): SharedStretch | null {
  return longestShared(a, b, [Math.floor(a.length * (1 - SEARCH_SHARE)), a.length], [Math.floor(b.length * (1 - SEARCH_SHARE)), b.length]);
}
