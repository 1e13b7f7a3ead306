import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeUtf8Into, NATIVE_FROM_LENGTH, ShortStringTextEncoder } from "../../worker/utf8-encode";

/** Strings over all of Unicode, lone and split surrogates included, and the page's own kinds of text. */
const anyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 80 }),
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc
    .array(fc.constantFrom("a", "<div", ' class="', "é", "中文", "影视站", "😀", "\ud800", "\udfff", "\u0000", "\u07ff", "\u0800", "\uffff"), { maxLength: 30 })
    .map((parts) => parts.join("")),
);

/** What the platform's encoder answers, with the bytes it wrote. */
function nativeEncodeInto(source: string, size: number) {
  const view = new Uint8Array(size);
  const { read, written } = new TextEncoder().encodeInto(source, view);
  return { read, written, bytes: [...view] };
}

function jsEncodeInto(source: string, size: number) {
  const view = new Uint8Array(size);
  const { read, written } = encodeUtf8Into(source, view);
  return { read, written, bytes: [...view] };
}

describe("encodeUtf8Into", () => {
  it("writes the bytes the platform's TextEncoder writes, for any string", () => {
    fc.assert(
      fc.property(anyString, (source) => {
        const size = source.length * 3;
        expect(jsEncodeInto(source, size)).toEqual(nativeEncodeInto(source, size));
      }),
      { numRuns: 1000 },
    );
  });

  it("stops where the platform's does when the view is too small: whole code points only", () => {
    fc.assert(
      fc.property(anyString, fc.nat(40), (source, size) => {
        expect(jsEncodeInto(source, size)).toEqual(nativeEncodeInto(source, size));
      }),
      { numRuns: 1000 },
    );
  });

  it("encodes Chinese text, an emoji and lone surrogates as UTF-8", () => {
    const view = new Uint8Array(32);
    expect(encodeUtf8Into("影😀", view)).toEqual({ read: 3, written: 7 });
    expect([...view.subarray(0, 7)]).toEqual([0xe5, 0xbd, 0xb1, 0xf0, 0x9f, 0x98, 0x80]);
    expect(encodeUtf8Into("\ud800x", view)).toEqual({ read: 2, written: 4 });
    expect([...view.subarray(0, 4)]).toEqual([0xef, 0xbf, 0xbd, 0x78]);
    // An emoji that does not fit is not split: nothing of it is written.
    expect(encodeUtf8Into("a😀", view.subarray(0, 4))).toEqual({ read: 1, written: 1 });
  });
});

describe("ShortStringTextEncoder", () => {
  it("answers like TextEncoder for short and long strings", () => {
    const encoder = new ShortStringTextEncoder();
    for (const source of ["", '<a href="/video/video_001">', "精彩影视，免费畅享", "影".repeat(NATIVE_FROM_LENGTH + 5)]) {
      const view = new Uint8Array(4096);
      const native = new Uint8Array(4096);
      expect(encoder.encodeInto(source, view)).toEqual(new TextEncoder().encodeInto(source, native));
      expect(view).toEqual(native);
      expect(encoder.encode(source)).toEqual(new TextEncoder().encode(source));
    }
    expect(encoder.encoding).toBe("utf-8");
  });
});
