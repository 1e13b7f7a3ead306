import { describe, expect, it } from "vitest";
import { parseProbe } from "../../scripts/catalogue/probe";

/** `ffmpeg -i` summaries as the packaged ffmpeg prints them. */
describe("parseProbe", () => {
  it("reads duration, the video stream and the audio codec", () => {
    const stderr = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'clip.mp4':
  Duration: 00:01:04.52, start: 0.000000, bitrate: 1204 kb/s
    Stream #0:0(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 1280x720 [SAR 1:1 DAR 16:9], 1070 kb/s, 29.97 fps, 29.97 tbr, 30k tbn, 59.94 tbc (default)
    Stream #0:1(und): Audio: aac (LC) (mp4a / 0x6134706D), 48000 Hz, stereo, fltp, 128 kb/s (default)
At least one output file must be specified`;
    expect(parseProbe(stderr)).toEqual({ duration: 64.52, video: { codec: "h264", width: 1280, height: 720, fps: 29.97 }, audio: { codec: "aac" } });
  });

  it("a video without sound has no audio", () => {
    const stderr = `  Duration: 00:00:05.00, start: 0.000000, bitrate: 300 kb/s
    Stream #0:0: Video: vp9 (Profile 0), yuv420p(tv), 640x360, SAR 1:1 DAR 16:9, 25 fps, 25 tbr, 1k tbn (default)`;
    expect(parseProbe(stderr)?.audio).toBeNull();
  });

  it("no video stream or no duration: not media", () => {
    expect(parseProbe("  Duration: 00:03:00.00, bitrate: 128 kb/s\n    Stream #0:0: Audio: mp3, 44100 Hz, stereo")).toBeNull();
    expect(parseProbe("clip.txt: Invalid data found when processing input")).toBeNull();
    expect(parseProbe("  Duration: N/A, bitrate: N/A\n    Stream #0:0: Video: png, rgb24, 100x100, 25 tbr")).toBeNull();
  });
});
