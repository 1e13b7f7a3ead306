// Audio-fingerprint matching of openings and endings (shared/media/intro-fingerprint.ts) on
// generated audio: episodes that share a known opening and ending at different offsets get
// markers within 1 s of the truth; episodes without a shared part get none.
import { describe, expect, it } from "vitest";
import { fingerprint, sharedIntro, sharedOutro } from "../../shared/media/intro-fingerprint";
import { concat, music } from "./generated-audio";

const OPENING = music(12, 1);
const ENDING = music(9, 2);

/** An episode: a cold open of `coldOpen` s, the opening, its own story, the ending, a tail. */
function episode(seed: number, coldOpen: number, story: number, tail: number): Float32Array {
  return concat(music(coldOpen, seed * 10 + 3), OPENING, music(story, seed * 10 + 4), ENDING, music(tail, seed * 10 + 5));
}

describe("openings and endings from audio fingerprints", () => {
  it("finds a shared opening and ending within 1 s, at different places in each episode", () => {
    const one = fingerprint(episode(1, 3, 40, 2));
    const two = fingerprint(episode(2, 7.5, 46, 0.5));
    const intro = sharedIntro(one, two);
    expect(intro).not.toBeNull();
    expect(Math.abs((intro?.a.start ?? -9) - 3)).toBeLessThanOrEqual(1);
    expect(Math.abs((intro?.a.end ?? -9) - 15)).toBeLessThanOrEqual(1);
    expect(Math.abs((intro?.b.start ?? -9) - 7.5)).toBeLessThanOrEqual(1);
    expect(Math.abs((intro?.b.end ?? -9) - 19.5)).toBeLessThanOrEqual(1);
    const outro = sharedOutro(one, two);
    // Episode one: 3 + 12 + 40 = 55 s to the ending's start; two: 7.5 + 12 + 46 = 65.5 s.
    expect(Math.abs((outro?.a.start ?? -9) - 55)).toBeLessThanOrEqual(1);
    expect(Math.abs((outro?.a.end ?? -9) - 64)).toBeLessThanOrEqual(1);
    expect(Math.abs((outro?.b.start ?? -9) - 65.5)).toBeLessThanOrEqual(1);
    expect(Math.abs((outro?.b.end ?? -9) - 74.5)).toBeLessThanOrEqual(1);
  });

  it("finds none between episodes that share nothing", () => {
    const one = fingerprint(concat(music(30, 31), music(30, 32)));
    const two = fingerprint(concat(music(30, 41), music(30, 42)));
    expect(sharedIntro(one, two)).toBeNull();
    expect(sharedOutro(one, two)).toBeNull();
  });

  it("finds no ending when only the opening is shared", () => {
    const one = fingerprint(concat(OPENING, music(40, 51)));
    const two = fingerprint(concat(music(2, 60), OPENING, music(40, 61)));
    expect(sharedIntro(one, two)).not.toBeNull();
    expect(sharedOutro(one, two)).toBeNull();
  });
});
