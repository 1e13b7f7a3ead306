/**
 * Decoded audio → the fingerprint's PCM (shared/media/intro-fingerprint.ts: mono at
 * FINGERPRINT_RATE), chunk by chunk as a decoder hands them out: the channels averaged, then each
 * output sample the mean of the input samples that fall in its 1/FINGERPRINT_RATE s (a box filter:
 * crude, but the same for every episode, which is all the matching needs). The browser packer feeds
 * it WebCodecs' decoded audio (client/admin/packer/audio-fingerprint.ts); the CLI has ffmpeg's
 * `-ac 1 -ar 8000` instead.
 */
import { FINGERPRINT_RATE } from "./intro-fingerprint";

export class MonoDownsampler {
  private out: Float32Array;
  private length = 0;
  /** Input samples seen so far (the position of the next one). */
  private inputIndex = 0;
  private sum = 0;
  private count = 0;
  private current = 0;

  constructor(
    private readonly inputRate: number,
    expectedSeconds = 60,
  ) {
    if (!(inputRate >= FINGERPRINT_RATE)) throw new Error(`sample rate ${inputRate} is below ${FINGERPRINT_RATE} Hz`);
    this.out = new Float32Array(Math.max(1, Math.ceil(expectedSeconds * FINGERPRINT_RATE)));
  }

  /**
   * One decoded chunk: its channels' planes (each `frames` long) starting at `startSeconds` (a chunk
   * before 0 — an encoder's priming — is cut at 0; a chunk after a gap continues where the last ended).
   */
  push(planes: readonly Float32Array[], startSeconds = this.inputIndex / this.inputRate): void {
    if (planes.length === 0) return;
    const frames = planes[0].length;
    const skip = Math.min(frames, Math.max(0, Math.round(-startSeconds * this.inputRate)));
    for (let i = skip; i < frames; i++) {
      let x = 0;
      for (const plane of planes) x += plane[i];
      const target = Math.floor((this.inputIndex * FINGERPRINT_RATE) / this.inputRate);
      if (target !== this.current) this.flush(target);
      this.sum += x / planes.length;
      this.count++;
      this.inputIndex++;
    }
  }

  private flush(next: number): void {
    if (this.count > 0) this.append(this.sum / this.count);
    this.sum = 0;
    this.count = 0;
    this.current = next;
  }

  private append(x: number): void {
    if (this.length === this.out.length) {
      const grown = new Float32Array(this.out.length * 2);
      grown.set(this.out);
      this.out = grown;
    }
    this.out[this.length++] = x;
  }

  /** The mono PCM at FINGERPRINT_RATE so far (the last, partial sample included). */
  result(): Float32Array {
    this.flush(this.current + 1);
    return this.out.slice(0, this.length);
  }
}

/** The stored form of a fingerprint (`audio.fp` of an upload, docs/decisions/0099-browser-intro-detection.md): "IFP1" and the codes, little-endian. */
const MAGIC = [0x49, 0x46, 0x50, 0x31];

export function fingerprintBytes(codes: Uint32Array): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(4 + codes.length * 4);
  bytes.set(MAGIC);
  const view = new DataView(bytes.buffer);
  codes.forEach((code, i) => view.setUint32(4 + i * 4, code, true));
  return bytes;
}

/** The codes of a stored fingerprint, or null when `bytes` is not one. */
export function fingerprintFromBytes(bytes: Uint8Array): Uint32Array | null {
  if (bytes.length < 4 || (bytes.length - 4) % 4 !== 0 || MAGIC.some((b, i) => bytes[i] !== b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const codes = new Uint32Array((bytes.length - 4) / 4);
  for (let i = 0; i < codes.length; i++) codes[i] = view.getUint32(4 + i * 4, true);
  return codes;
}
