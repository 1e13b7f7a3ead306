import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contentRange, parseRange, parseRangeSpec, type RangeResult } from "../../worker/http/range";
import { ifNoneMatchMatches, ifRangeAllows, notModifiedSince, parseEntityTagList } from "../../worker/http/validators";

const full: RangeResult = { kind: "full" };
const unsat: RangeResult = { kind: "unsatisfiable" };
const part = (start: number, end: number): RangeResult => ({ kind: "partial", start, end });

describe("parseRange", () => {
  it.each<[string | null | undefined, number, RangeResult]>([
    // absent
    [null, 1000, full],
    [undefined, 1000, full],
    // bytes=a-b
    ["bytes=0-99", 1000, part(0, 99)],
    ["bytes=0-0", 1000, part(0, 0)],
    ["bytes=999-999", 1000, part(999, 999)],
    ["bytes=500-1500", 1000, part(500, 999)],
    ["bytes=0-999999999999", 1000, part(0, 999)],
    ["bytes=007-010", 1000, part(7, 10)],
    // bytes=a-
    ["bytes=0-", 1000, part(0, 999)],
    ["bytes=900-", 1000, part(900, 999)],
    ["bytes=999-", 1000, part(999, 999)],
    ["bytes=1000-", 1000, unsat],
    ["bytes=1000-2000", 1000, unsat],
    ["bytes=5000-", 1000, unsat],
    // bytes=-n
    ["bytes=-100", 1000, part(900, 999)],
    ["bytes=-1", 1000, part(999, 999)],
    ["bytes=-1000", 1000, part(0, 999)],
    ["bytes=-5000", 1000, part(0, 999)],
    ["bytes=-0", 1000, unsat],
    ["bytes=-000", 1000, unsat],
    // unit is case-insensitive; OWS around the value and around list elements
    ["Bytes=0-9", 1000, part(0, 9)],
    ["BYTES=0-9", 1000, part(0, 9)],
    [" bytes=0-9 ", 1000, part(0, 9)],
    ["bytes=0-9 ", 1000, part(0, 9)],
    ["bytes=0-9,", 1000, part(0, 9)],
    ["bytes=, 0-9 ,\t,", 1000, part(0, 9)],
    // malformed → full
    ["", 1000, full],
    ["bytes", 1000, full],
    ["bytes=", 1000, full],
    ["bytes=,", 1000, full],
    ["bytes=-", 1000, full],
    ["bytes=abc", 1000, full],
    ["bytes=1-2-3", 1000, full],
    ["bytes=0x10-20", 1000, full],
    ["bytes=1e3-", 1000, full],
    ["bytes=+1-2", 1000, full],
    ["bytes=-+1", 1000, full],
    ["bytes=--1", 1000, full],
    ["bytes=1.5-2", 1000, full],
    ["bytes = 0-9", 1000, full],
    ["bytes =0-9", 1000, full],
    ["bytes= 0-9", 1000, part(0, 9)], // OWS before the first element: list rule allows it
    ["bytes=0 -9", 1000, full],
    ["bytes=0- 9", 1000, full],
    ["bytes=0-9\n", 1000, full],
    ["bytes=\u00a00-9", 1000, full],
    ["bytes=٠-٩", 1000, full],
    ["items=0-9", 1000, full],
    ["byte=0-9", 1000, full],
    ["=0-9", 1000, full],
    ["bytes=0-9;", 1000, full],
    // backwards → full
    ["bytes=10-5", 1000, full],
    ["bytes=1000-999", 1000, full],
    // multiple ranges → full (no multipart)
    ["bytes=0-1,5-6", 1000, full],
    ["bytes=0-1, 5-6", 1000, full],
    ["bytes=0-1,-5", 1000, full],
    ["bytes=0-1,0-1", 1000, full],
    ["bytes=5000-6000,0-1", 1000, full],
    // numbers beyond Number.MAX_SAFE_INTEGER → full
    ["bytes=9007199254740992-", 1000, full],
    ["bytes=0-9007199254740992", 1000, full],
    ["bytes=-9007199254740992", 1000, full],
    ["bytes=0-99999999999999999999999", 1000, full],
    ["bytes=9007199254740991-", 1000, unsat],
    ["bytes=-9007199254740991", 1000, part(0, 999)],
    // empty representation: every valid range is unsatisfiable, malformed stays full
    ["bytes=0-", 0, unsat],
    ["bytes=0-0", 0, unsat],
    ["bytes=-1", 0, unsat],
    ["bytes=-0", 0, unsat],
    ["bytes=garbage", 0, full],
    ["bytes=0-1,2-3", 0, full],
    [null, 0, full],
    // one-byte representation
    ["bytes=0-", 1, part(0, 0)],
    ["bytes=-5", 1, part(0, 0)],
    ["bytes=1-", 1, unsat],
  ])("%j of %i bytes", (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });

  it("parses the spec independently of the size", () => {
    expect(parseRangeSpec("bytes=3-")).toEqual({ type: "int", first: 3 });
    expect(parseRangeSpec("bytes=3-4")).toEqual({ type: "int", first: 3, last: 4 });
    expect(parseRangeSpec("bytes=-4")).toEqual({ type: "suffix", length: 4 });
    expect(parseRangeSpec("bytes=4-3")).toBeNull();
  });

  it("formats Content-Range", () => {
    expect(contentRange(0, 99, 1000)).toBe("bytes 0-99/1000");
  });
});

// ---------------------------------------------------------------------------------------------
// Property test: parseRange against a small independent model of RFC 9110 §14.1.

/** Reference model written differently from the implementation (character scanning, BigInt). */
function modelParse(header: string, size: number): RangeResult {
  const isOws = (ch: string) => ch === " " || ch === "\t";
  let lo = 0;
  let hi = header.length;
  while (lo < hi && isOws(header[lo])) lo++;
  while (hi > lo && isOws(header[hi - 1])) hi--;
  const v = header.slice(lo, hi);
  if (v.slice(0, 6).toLowerCase() !== "bytes=") return { kind: "full" };
  const elements: string[] = [];
  let cur = "";
  for (const ch of v.slice(6) + ",") {
    if (ch === ",") {
      let a = 0;
      let b = cur.length;
      while (a < b && isOws(cur[a])) a++;
      while (b > a && isOws(cur[b - 1])) b--;
      if (b > a) elements.push(cur.slice(a, b));
      cur = "";
    } else cur += ch;
  }
  if (elements.length !== 1) return { kind: "full" };
  const el = elements[0];
  const dash = el.indexOf("-");
  if (dash < 0 || el.indexOf("-", dash + 1) >= 0) return { kind: "full" };
  const left = el.slice(0, dash);
  const right = el.slice(dash + 1);
  const digits = (s: string) => s.length > 0 && [...s].every((ch) => ch >= "0" && ch <= "9");
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  const S = BigInt(size);
  if (left === "") {
    if (!digits(right) || BigInt(right) > max) return { kind: "full" };
    const n = BigInt(right);
    if (n === 0n || S === 0n) return { kind: "unsatisfiable" };
    const start = n >= S ? 0n : S - n;
    return { kind: "partial", start: Number(start), end: size - 1 };
  }
  if (!digits(left) || BigInt(left) > max) return { kind: "full" };
  const first = BigInt(left);
  if (right !== "" && (!digits(right) || BigInt(right) > max || BigInt(right) < first)) {
    return { kind: "full" };
  }
  if (first >= S) return { kind: "unsatisfiable" };
  const last = right === "" || BigInt(right) >= S ? S - 1n : BigInt(right);
  return { kind: "partial", start: Number(first), end: Number(last) };
}

const numberText = fc.oneof(
  fc.nat({ max: 20 }).map(String),
  fc.nat({ max: 12_000_000 }).map(String),
  fc.constantFrom("0", "00", "007", "9007199254740991", "9007199254740992", "1".repeat(25)),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
);
const ows = fc.oneof({ arbitrary: fc.constant(""), weight: 6 }, { arbitrary: fc.constantFrom(" ", "\t", "  ", " \t"), weight: 1 });
const rangeSpec = fc.oneof(
  { arbitrary: fc.tuple(numberText, numberText).map(([a, b]) => `${a}-${b}`), weight: 4 },
  { arbitrary: numberText.map((a) => `${a}-`), weight: 3 },
  { arbitrary: numberText.map((n) => `-${n}`), weight: 3 },
  {
    arbitrary: fc.constantFrom("-", "", "a-b", "1-2-3", "0x1-2", "1 -2", "1- 2", "+1-", "-+1", "1e3-", "٣-"),
    weight: 1,
  },
  { arbitrary: fc.string({ maxLength: 6 }), weight: 1 },
);
const element = fc.tuple(ows, rangeSpec, ows).map(([a, spec, b]) => `${a}${spec}${b}`);
const rangeSet = fc.oneof(
  { arbitrary: element, weight: 6 },
  // several elements, some of them possibly empty (the list rule ignores empty ones)
  {
    arbitrary: fc.array(fc.oneof(element, ows), { minLength: 2, maxLength: 4 }).map((parts) => parts.join(",")),
    weight: 3,
  },
);
const unit = fc.oneof(
  { arbitrary: fc.constant("bytes"), weight: 8 },
  { arbitrary: fc.constantFrom("Bytes", "BYTES", "byte", "items", "", "bytes ", " bytes"), weight: 1 },
);
const rangeHeader = fc.oneof(
  {
    arbitrary: fc.tuple(ows, unit, rangeSet, ows).map(([a, u, set, b]) => `${a}${u}=${set}${b}`),
    weight: 10,
  },
  { arbitrary: fc.string({ maxLength: 20 }), weight: 1 },
  { arbitrary: fc.string({ maxLength: 12 }).map((x) => `bytes=${x}`), weight: 1 },
);
const objectSize = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 10_000_000 }));

describe("parseRange property", () => {
  it("agrees with the reference model", () => {
    fc.assert(
      fc.property(rangeHeader, objectSize, (header, size) => {
        expect(parseRange(header, size)).toEqual(modelParse(header, size));
      }),
      { numRuns: 20_000 },
    );
  });

  it("partial ranges always lie inside the representation", () => {
    fc.assert(
      fc.property(rangeHeader, objectSize, (header, size) => {
        const r = parseRange(header, size);
        if (r.kind === "partial") {
          expect(r.start).toBeGreaterThanOrEqual(0);
          expect(r.start).toBeLessThanOrEqual(r.end);
          expect(r.end).toBeLessThan(size);
        }
        if (size === 0) expect(r.kind).not.toBe("partial");
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Conditional requests

describe("entity tags", () => {
  const etag = '"abc123"';

  it("parses lists, including commas inside tags", () => {
    expect(parseEntityTagList('"a", W/"b",  "c,d"')).toEqual([
      { weak: false, opaque: '"a"' },
      { weak: true, opaque: '"b"' },
      { weak: false, opaque: '"c,d"' },
    ]);
    expect(parseEntityTagList("*")).toBe("*");
    expect(parseEntityTagList("abc")).toBeNull();
    expect(parseEntityTagList('"a" "b"')).toBeNull();
    expect(parseEntityTagList('"unterminated')).toBeNull();
  });

  it.each<[string | null, boolean]>([
    [null, false],
    ['"abc123"', true],
    ['W/"abc123"', true], // weak comparison
    ['"x", "abc123"', true],
    ['"x",W/"abc123" , "y"', true],
    ["*", true],
    [" * ", true],
    ['"abc"', false],
    ['"ABC123"', false],
    ["abc123", false],
    ['"x", *', false], // `*` only on its own
    ["", false],
  ])("If-None-Match %j", (header, expected) => {
    expect(ifNoneMatchMatches(header, etag)).toBe(expected);
  });

  it("If-None-Match against a weak current tag", () => {
    expect(ifNoneMatchMatches('"v1"', 'W/"v1"')).toBe(true);
  });
});

describe("If-Modified-Since", () => {
  const lastModified = new Date("2026-01-02T03:04:05.678Z");
  it.each<[string | null, boolean]>([
    [null, false],
    ["Fri, 02 Jan 2026 03:04:05 GMT", true],
    ["Sat, 03 Jan 2026 00:00:00 GMT", true],
    ["Fri, 02 Jan 2026 03:04:04 GMT", false],
    ["yesterday", false],
    ["1", false],
  ])("%j", (header, expected) => {
    expect(notModifiedSince(header, lastModified)).toBe(expected);
  });
});

describe("If-Range", () => {
  const etag = '"abc123"';
  const lastModified = new Date("2026-01-02T03:04:05.678Z");
  it.each<[string | null, boolean]>([
    [null, true],
    ['"abc123"', true],
    ['W/"abc123"', false], // weak tags never match strongly
    ['"other"', false],
    ['"abc123", "x"', false], // a single entity-tag only
    ["Fri, 02 Jan 2026 03:04:05 GMT", true], // equals Last-Modified (to the second)
    ["Fri, 02 Jan 2026 03:04:06 GMT", false], // later date is not an exact match
    ["Fri, 02 Jan 2026 03:04:04 GMT", false],
    ["garbage", false],
    ["", false],
  ])("%j", (header, expected) => {
    expect(ifRangeAllows(header, etag, lastModified)).toBe(expected);
  });

  it("never matches against a weak current tag", () => {
    expect(ifRangeAllows('W/"v"', 'W/"v"', new Date())).toBe(false);
    expect(ifRangeAllows('"v"', 'W/"v"', new Date())).toBe(false);
  });
});
