import { describe, expect, it } from "vitest";
import { isOutage, probeVerdict, retryDelayMs } from "../../shared/playback/media-outage";

describe("a media outage: when the player waits and retries instead of moving on", () => {
  it("reads a probe's status: 2xx is there, 5xx / 429 / no answer is down for now, 404 is missing", () => {
    expect(probeVerdict(200)).toBe("up");
    expect(probeVerdict(206)).toBe("up");
    expect(probeVerdict(503)).toBe("down");
    expect(probeVerdict(500)).toBe("down");
    expect(probeVerdict(429)).toBe("down");
    expect(probeVerdict(null)).toBe("down");
    expect(probeVerdict(404)).toBe("missing");
    expect(probeVerdict(403)).toBe("missing");
  });

  it("waits for media that is down, and for a broken-off download of media that is there; gives up on a missing or undecodable file", () => {
    expect(isOutage(4, "down")).toBe(true); // R2 failing: the element calls it unsupported, the probe knows better
    expect(isOutage(2, "up")).toBe(true); // MEDIA_ERR_NETWORK
    expect(isOutage(3, "up")).toBe(false); // MEDIA_ERR_DECODE: a broken file
    expect(isOutage(4, "up")).toBe(false);
    expect(isOutage(2, "missing")).toBe(false);
    expect(isOutage(null, "missing")).toBe(false);
  });

  it("backs off 1, 2, 4, 8, 16 s, then every 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });
});
