import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Highlighted } from "../../shared/components/Highlighted";
import { marksFor, segments } from "../../shared/search/highlight";
import { addToHistory, MAX_HISTORY, parseHistory } from "../../shared/search/history";
import { foldText } from "../../shared/search/normalise";

describe("highlighting", () => {
  it("maps folded matches back to the original title, across dropped punctuation", () => {
    const f = foldText("开麦吧，邻居");
    expect(marksFor(f, [{ start: 2, end: 4 }])).toEqual([[2, 5]]);
    expect(
      marksFor(f, [
        { start: 0, end: 1 },
        { start: 1, end: 2 },
        { start: 4, end: 5 },
      ]),
    ).toEqual([
      [0, 2],
      [5, 6],
    ]);
  });
  it("cuts a title into plain and marked runs; bad marks are ignored", () => {
    expect(segments("雾港来信", [[0, 2]])).toEqual([
      { text: "雾港", marked: true },
      { text: "来信", marked: false },
    ]);
    expect(
      segments("雾港", [
        [1, 9],
        [-1, 1],
        [1, 1],
      ]),
    ).toEqual([{ text: "雾港", marked: false }]);
    expect(segments("", [])).toEqual([{ text: "", marked: false }]);
  });
  it("renders <mark> with every run escaped", () => {
    const html = renderToStaticMarkup(createElement(Highlighted, { text: '<b>"雾"&港</b>', marks: [[4, 8]] }));
    expect(html).toBe("&lt;b&gt;&quot;<mark>雾&quot;&amp;港</mark>&lt;/b&gt;");
  });
});

describe("search history", () => {
  it("newest first, no duplicates, at most 10", () => {
    let list: string[] = [];
    for (let i = 0; i < 12; i++) list = addToHistory(list, `词${i}`);
    expect(list).toHaveLength(MAX_HISTORY);
    expect(list[0]).toBe("词11");
    expect(addToHistory(list, " 词5 ")[0]).toBe("词5");
    expect(addToHistory(list, " 词5 ").filter((q) => q === "词5")).toHaveLength(1);
    expect(addToHistory(list, "   ")).toEqual(list);
  });
  it("reads whatever the storage holds without failing", () => {
    expect(parseHistory(null)).toEqual([]);
    expect(parseHistory("{not json")).toEqual([]);
    expect(parseHistory('{"a":1}')).toEqual([]);
    expect(parseHistory('["雾港", 3, null, " 雾港 ", "", "wglx"]')).toEqual(["雾港", "wglx"]);
  });
});
