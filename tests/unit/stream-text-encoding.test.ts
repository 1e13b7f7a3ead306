import { describe, expect, it } from "vitest";
import { textEncodingFor, weakETag } from "../../worker/stream/text-encoding";

describe("textEncodingFor (RFC 9110 Accept-Encoding): the coding of a playlist or WebVTT answer", () => {
  it.each([
    // Browsers and players as they ask.
    ["gzip, deflate, br, zstd", "br"],
    ["gzip, deflate", "gzip"],
    ["br", "br"],
    ["GZIP", "gzip"],
    ["x-gzip", "gzip"],
    // q-values decide; brotli wins a tie.
    ["br;q=0.5, gzip;q=0.8", "gzip"],
    ["br;q=1.0, gzip;q=0.8, *;q=0.1", "br"],
    [" gzip ; q=0.001", "gzip"],
    ["gzip;q=0, br", "br"],
    ["br;q=0, gzip", "gzip"],
    // `*` stands for the codings not named.
    ["*", "br"],
    ["br;q=0, *", "gzip"],
    ["deflate, *;q=0.5", "br"],
    // Nothing acceptable: the file as it is.
    ["", null],
    ["identity", null],
    ["deflate, zstd", null],
    ["gzip;q=0", null],
    ["gzip;q=0.000, br;q=0", null],
    ["*;q=0", null],
    ["gzip;q=0, br;q=0, *", null],
    ["gzip;q=abc", null],
  ])("%j → %s", (header, expected) => {
    expect(textEncodingFor(header)).toBe(expected);
  });

  it("no header → the file as it is", () => {
    expect(textEncodingFor(null)).toBeNull();
  });
});

describe("weakETag", () => {
  it("makes a strong entity tag weak and keeps a weak one", () => {
    expect(weakETag('"abc"')).toBe('W/"abc"');
    expect(weakETag('W/"abc"')).toBe('W/"abc"');
  });
});
