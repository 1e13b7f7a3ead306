import type { FoldedText } from "./normalise";
import type { CharRange } from "./pinyin-match";

/** A highlighted run of a title: [start, end) in UTF-16 offsets of the original title. */
export type Mark = readonly [number, number];

/** Maps matched folded characters back to the original title, merged and in order. */
export function marksFor(folded: FoldedText, ranges: readonly CharRange[]): Mark[] {
  const spans = ranges
    .filter((r) => r.end > r.start && r.start >= 0 && r.end <= folded.chars.length)
    .map((r): [number, number] => [folded.starts[r.start], folded.ends[r.end - 1]])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Array<[number, number]> = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([span[0], span[1]]);
  }
  return merged;
}

export interface Segment {
  text: string;
  marked: boolean;
}

/**
 * A title cut into plain and marked runs (rendered as text and <mark>, so React
 * escapes every run). Marks outside the text or overlapping are ignored.
 */
export function segments(text: string, marks: readonly Mark[] | undefined): Segment[] {
  const out: Segment[] = [];
  let at = 0;
  for (const [start, end] of marks ?? []) {
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < at || end <= start || end > text.length) continue;
    if (start > at) out.push({ text: text.slice(at, start), marked: false });
    out.push({ text: text.slice(start, end), marked: true });
    at = end;
  }
  if (at < text.length || out.length === 0) out.push({ text: text.slice(at), marked: false });
  return out;
}
