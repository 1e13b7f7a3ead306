import { runInThisContext } from "node:vm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { serializeForScript } from "../../shared/hydration";

/** Strings over all of Unicode (lone surrogates included) plus the markup that matters here. */
const anyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc
    .array(
      fc.constantFrom(
        "</script>",
        "</SCRIPT",
        "<!--",
        "-->",
        "<script>",
        "\u2028",
        "\u2029",
        "&",
        "<",
        ">",
        "\\",
        '"',
        "'",
        "/",
        "\ud800",
        "\udfff",
        "中文",
        "\u0000",
      ),
      { maxLength: 10 },
    )
    .map((parts) => parts.join("")),
);

/** JSON-safe values: any strings as values and as keys, nested. */
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    anyString,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(anyString, tie("value"), { maxKeys: 5 }),
  ),
})).value;

const anyObject = fc.dictionary(anyString, jsonValue, { maxKeys: 6 });

function expectInert(out: string) {
  expect(out.toLowerCase()).not.toContain("</script");
  expect(out).not.toContain("<!--");
  expect(out).not.toContain("<");
  expect(out).not.toContain(">");
  expect(out).not.toContain("\u2028");
  expect(out).not.toContain("\u2029");
}

describe("serializeForScript", () => {
  it("escapes the known dangerous strings", () => {
    const out = serializeForScript({ q: "</script><script>alert(1)</script><!--", sep: "\u2028\u2029" });
    expectInert(out);
    expect(JSON.parse(out)).toEqual({ q: "</script><script>alert(1)</script><!--", sep: "\u2028\u2029" });
  });

  it("property: any object with any strings round-trips and never closes the script element", () => {
    fc.assert(
      fc.property(anyObject, (value) => {
        const out = serializeForScript(value);
        expectInert(out);
        // Same as what JSON itself gives back (-0 and lone surrogates included).
        expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 1000 },
    );
  });

  it("property: any single string round-trips exactly", () => {
    fc.assert(
      fc.property(anyString, (s) => {
        const out = serializeForScript(s);
        expectInert(out);
        expect(JSON.parse(out)).toBe(s);
        // Evaluated as a script expression (what the browser does), it is the same string.
        expect(runInThisContext(`(${out})`) as unknown).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });
});
