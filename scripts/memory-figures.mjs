// @ts-check
/**
 * The load test's memory figures, from samples `{ t: seconds, rssMiB | usedMiB | … }` taken during
 * a run: pure functions (unit-tested in tests/unit/memory-figures.test.ts).
 */

/**
 * One sample of a run: seconds since the start, plus whichever figures were read (MiB).
 * @typedef {{ t: number, rssMiB?: number | null, usedMiB?: number | null, totalMiB?: number | null, buffersMiB?: number | null }} MemorySample
 */

/** Floor, mean (rounded) and peak of the RSS samples with `from` ≤ t ≤ `to`, or null if none.
 * @param {readonly MemorySample[]} samples
 * @param {number} from
 * @param {number} to
 * @returns {{ minMiB: number, meanMiB: number, maxMiB: number } | null}
 */
export function rssWindow(samples, from, to) {
  const values = samples.filter((s) => s.t >= from && s.t <= to && typeof s.rssMiB === "number").map((s) => /** @type {number} */ (s.rssMiB));
  if (!values.length) return null;
  return { minMiB: Math.min(...values), meanMiB: Math.round(values.reduce((a, b) => a + b, 0) / values.length), maxMiB: Math.max(...values) };
}

/** Least-squares slope of the RSS samples in MiB per minute (one decimal), or null under 3 samples.
 * @param {readonly MemorySample[]} samples
 * @returns {number | null}
 */
export function rssSlope(samples) {
  const points = samples.flatMap((s) => (typeof s.rssMiB === "number" ? [{ t: s.t, rssMiB: s.rssMiB }] : []));
  if (points.length < 3) return null;
  const n = points.length;
  const mt = points.reduce((a, p) => a + p.t, 0) / n;
  const mr = points.reduce((a, p) => a + p.rssMiB, 0) / n;
  const cov = points.reduce((a, p) => a + (p.t - mt) * (p.rssMiB - mr), 0);
  const varT = points.reduce((a, p) => a + (p.t - mt) ** 2, 0);
  if (varT === 0) return null;
  return Math.round((cov / varT) * 60 * 10) / 10;
}

/** Floor and peak of one heap figure (usedMiB, totalMiB, buffersMiB) in a time window, or null.
 * @param {readonly MemorySample[]} samples
 * @param {number} from
 * @param {number} to
 * @param {"usedMiB" | "totalMiB" | "buffersMiB"} field
 * @returns {{ minMiB: number, maxMiB: number } | null}
 */
export function heapWindow(samples, from, to, field) {
  const values = samples.flatMap((s) => {
    const value = s[field];
    return s.t >= from && s.t <= to && typeof value === "number" ? [value] : [];
  });
  return values.length ? { minMiB: Math.min(...values), maxMiB: Math.max(...values) } : null;
}
