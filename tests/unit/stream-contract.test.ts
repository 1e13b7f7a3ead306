import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cacheControlFor,
  IMMUTABLE_CACHE_CONTROL,
  parseStreamPath,
  SHORT_CACHE_CONTROL,
  STREAM_CONTENT_TYPES,
  streamNames,
  streamPath,
  type StreamFileKind,
} from "../../shared/stream/contract";

const V = "0123abcd";

describe("parseStreamPath", () => {
  // Why: every name the packer writes must be served, with the right kind and R2 key.
  it.each<[string, StreamFileKind]>([
    ["/stream/1/master.m3u8", "master"],
    ["/stream/999999/master.m3u8", "master"],
    ["/stream/12/270p.m3u8", "media-playlist"],
    ["/stream/12/1080p.m3u8", "media-playlist"],
    ["/stream/12/2160p.m3u8", "media-playlist"],
    ["/stream/12/360p-0123abcd-init.mp4", "init"],
    ["/stream/12/720p-ffffffff-00000.m4s", "segment"],
    ["/stream/12/1080p-00000000-99999.m4s", "segment"],
    ["/stream/12/subtitles-zh-CN.m3u8", "subtitle-playlist"],
    ["/stream/12/subtitles-zh-CN.vtt", "subtitles"],
    ["/stream/12/storyboard.vtt", "storyboard"],
    ["/stream/12/sb-0123abcd-0.jpg", "sprite"],
    ["/stream/12/sb-0123abcd-999.jpg", "sprite"],
  ])("%s → %s", (path, kind) => {
    const file = parseStreamPath(path);
    expect(file?.kind).toBe(kind);
    const name = path.split("/")[3];
    expect(file?.key).toBe(`stream/${path.split("/")[2]}/${name}`);
  });

  // Why: names the packer writes through streamNames round-trip through the parser.
  it("every streamNames output parses to its kind", () => {
    const cases: [string, StreamFileKind][] = [
      [streamNames.master, "master"],
      [streamNames.mediaPlaylist(360), "media-playlist"],
      [streamNames.init(720, V), "init"],
      [streamNames.segment(1080, V, 42), "segment"],
      [streamNames.subtitlePlaylist, "subtitle-playlist"],
      [streamNames.subtitles, "subtitles"],
      [streamNames.storyboard, "storyboard"],
      [streamNames.sprite(V, 3), "sprite"],
    ];
    for (const [name, kind] of cases) expect(parseStreamPath(streamPath(7, name))?.kind, name).toBe(kind);
  });

  // Why: anything else under /stream/ must not become an R2 key (traversal, encodings, case, depth).
  it.each([
    "/stream/1/MASTER.m3u8",
    "/stream/1/Master.m3u8",
    "/stream/1/master.M3U8",
    "/stream/01/master.m3u8",
    "/stream/0/master.m3u8",
    "/stream/1234567/master.m3u8",
    "/stream/-1/master.m3u8",
    "/stream/1/master.m3u8/",
    "/stream/1/master.m3u8.bak",
    "/stream/1//master.m3u8",
    "/stream//1/master.m3u8",
    "/stream/1/x/master.m3u8",
    "/stream/1/../2/master.m3u8",
    "/stream/1/..%2fmaster.m3u8",
    "/stream/1%2fmaster.m3u8",
    "/stream/1/%2e%2e%2fmaster.m3u8",
    "/stream/1/master%2em3u8",
    "/stream/1/master.m3u8%00",
    "/stream/1/master.m3u8?x=1",
    "/stream/1/99p.m3u8",
    "/stream/1/10800p.m3u8",
    "/stream/1/0360p.m3u8",
    "/stream/1/360p-0123ABCD-init.mp4",
    "/stream/1/360p-0123abc-init.mp4",
    "/stream/1/360p-0123abcd-1.m4s",
    "/stream/1/360p-0123abcd-000001.m4s",
    "/stream/1/360p-0123abcd-00001.mp4",
    "/stream/1/subtitles-zh-cn.vtt",
    "/stream/1/subtitles-fr.vtt",
    "/stream/1/sb-0123abcd-1000.jpg",
    "/stream/1/sb-0123abcd-.jpg",
    "/stream/1/",
    "/stream/1",
    "/stream/",
    "/stream/1/master.m3u8 ",
    "stream/1/master.m3u8",
    "/STREAM/1/master.m3u8",
    "/x/stream/1/master.m3u8",
  ])("rejects %j", (path) => {
    expect(parseStreamPath(path)).toBeNull();
  });

  // Why: whatever a client sends, a parsed key stays one plain file name inside stream/{n}/.
  it("random paths never parse into a key outside stream/{n}/", () => {
    const piece = fc.constantFrom(
      "/",
      "/stream/",
      "stream",
      "..",
      ".",
      "%2f",
      "%2F",
      "%2e",
      "%00",
      "\\",
      "1",
      "0",
      "12",
      "999999",
      "master",
      ".m3u8",
      "360p",
      "-",
      "0123abcd",
      "init",
      ".mp4",
      "00001",
      ".m4s",
      "sb",
      ".jpg",
      "subtitles-zh-CN",
      ".vtt",
      "storyboard",
      "p",
      "a",
      "Z",
      " ",
      "?",
      "#",
    );
    const validPath = fc
      .tuple(
        fc.integer({ min: 1, max: 999999 }),
        fc.constantFrom(streamNames.master, streamNames.mediaPlaylist(720), streamNames.segment(360, V, 7), streamNames.sprite(V, 2)),
      )
      .map(([n, name]) => streamPath(n, name));
    // Valid paths with a piece spliced in somewhere: mostly invalid, sometimes still valid.
    const nearValid = fc.tuple(validPath, piece, fc.nat()).map(([p, insert, at]) => p.slice(0, at % (p.length + 1)) + insert + p.slice(at % (p.length + 1)));
    const path = fc.oneof(
      fc.string(),
      fc.array(piece, { maxLength: 12 }).map((parts) => parts.join("")),
      fc.array(piece, { maxLength: 6 }).map((parts) => "/stream/" + parts.join("")),
      validPath,
      nearValid,
    );
    // The generator does reach the parser's accepting side (else the property would say nothing).
    const sample = fc.sample(path, { numRuns: 2000, seed: 1 });
    expect(sample.filter((p) => parseStreamPath(p) !== null).length).toBeGreaterThan(100);
    fc.assert(
      fc.property(path, (p) => {
        const file = parseStreamPath(p);
        if (file === null) return;
        expect(file.key).toMatch(/^stream\/[1-9][0-9]{0,5}\/[A-Za-z0-9-]+\.(?:m3u8|mp4|m4s|vtt|jpg)$/);
        expect(file.key).toBe(`stream/${file.n}/${file.name}`);
        expect(file.name).not.toContain("..");
        expect(streamPath(file.n, file.name)).toBe(p);
      }),
      { numRuns: 5000 },
    );
  });
});

describe("stream cache policy", () => {
  // Why: versioned names are immutable, fixed names (playlists, cues) must be short-cached so a repack shows.
  it.each<[StreamFileKind, string]>([
    ["master", SHORT_CACHE_CONTROL],
    ["media-playlist", SHORT_CACHE_CONTROL],
    ["subtitle-playlist", SHORT_CACHE_CONTROL],
    ["subtitles", SHORT_CACHE_CONTROL],
    ["storyboard", SHORT_CACHE_CONTROL],
    ["init", IMMUTABLE_CACHE_CONTROL],
    ["segment", IMMUTABLE_CACHE_CONTROL],
    ["sprite", IMMUTABLE_CACHE_CONTROL],
  ])("%s → %s", (kind, cacheControl) => {
    expect(cacheControlFor(kind)).toBe(cacheControl);
    expect(STREAM_CONTENT_TYPES[kind]).toBeTruthy();
  });
});
