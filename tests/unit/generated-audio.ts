// Generated audio for the 片头 / 片尾 matching tests (tests/unit/intro-fingerprint.test.ts,
// tests/unit/intro-detect.test.ts): music-like chords from a seed, at the fingerprint's rate.
import { FINGERPRINT_RATE } from "../../shared/media/intro-fingerprint";

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `seconds` of music-like audio: a new chord of three tones every 0.25 s, from `seed` (at `rate`, the fingerprint's unless told). */
export function music(seconds: number, seed: number, rate = FINGERPRINT_RATE): Float32Array {
  const rand = random(seed);
  const out = new Float32Array(Math.round(seconds * rate));
  const step = rate / 4;
  let freqs = [0, 0, 0];
  for (let i = 0; i < out.length; i++) {
    if (i % step === 0) freqs = [0, 0, 0].map(() => 150 + rand() * 3000);
    const t = i / rate;
    out[i] = freqs.reduce((sum, f) => sum + Math.sin(2 * Math.PI * f * t) / 3, 0);
  }
  return out;
}

export function concat(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** 16-bit mono WAV of `pcm` at `rate` (for ffmpeg to encode into test clips). */
export function wavBytes(pcm: Float32Array, rate: number): Buffer {
  const data = Buffer.alloc(pcm.length * 2);
  pcm.forEach((x, i) => data.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(x * 20000))), i * 2));
  const head = Buffer.alloc(44);
  head.write("RIFF", 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write("WAVEfmt ", 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write("data", 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}
