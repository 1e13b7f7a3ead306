// Generated audio for the 片头 / 片尾 matching tests (tests/unit/intro-fingerprint.test.ts,
// tests/unit/intro-detect.test.ts): music-like chords from a seed, at the fingerprint's rate.
import { FINGERPRINT_RATE } from "../../scripts/media/intro-fingerprint";

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

/** `seconds` of music-like audio: a new chord of three tones every 0.25 s, from `seed`. */
export function music(seconds: number, seed: number): Float32Array {
  const rand = random(seed);
  const out = new Float32Array(Math.round(seconds * FINGERPRINT_RATE));
  const step = FINGERPRINT_RATE / 4;
  let freqs = [0, 0, 0];
  for (let i = 0; i < out.length; i++) {
    if (i % step === 0) freqs = [0, 0, 0].map(() => 150 + rand() * 3000);
    const t = i / FINGERPRINT_RATE;
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
