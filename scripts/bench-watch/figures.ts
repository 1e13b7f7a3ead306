/**
 * The arithmetic of the 一起看 bench (scripts/bench-watch/run.ts): percentiles, and the drift
 * between two members from each one's own samples of its <video>.
 */

/** The p-th percentile (0–100) by nearest rank; null for no values. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export const median = (values: readonly number[]) => percentile(values, 50);

/** One reading of a member's player: epoch ms, its currentTime (s), rate and whether it was paused. */
export interface PlayerSample {
  t: number;
  ct: number;
  rate: number;
  paused: boolean;
}

/**
 * A member's position at epoch `t` from its nearest sample (extrapolated at the sample's rate
 * while playing); null when no sample lies within `maxGapMs` of `t`.
 */
export function positionAtTime(samples: readonly PlayerSample[], t: number, maxGapMs: number): number | null {
  let best: PlayerSample | null = null;
  for (const s of samples) if (best === null || Math.abs(s.t - t) < Math.abs(best.t - t)) best = s;
  if (best === null || Math.abs(best.t - t) > maxGapMs) return null;
  return best.paused ? best.ct : best.ct + ((t - best.t) / 1000) * best.rate;
}

/**
 * |member − host| (s) once a second over the host's samples from `from` (epoch ms): each entry is
 * the second since `from`, the drift, and both positions (s; to tell a lagging member from one
 * at the clip's end), for every host sample nearest a whole second.
 */
export function driftSeries(
  host: readonly PlayerSample[],
  member: readonly PlayerSample[],
  from: number,
  seconds: number,
): Array<{ second: number; drift: number; host: number; member: number }> {
  const out: Array<{ second: number; drift: number; host: number; member: number }> = [];
  for (let second = 0; second < seconds; second++) {
    const at = from + second * 1000;
    const hostAt = positionAtTime(host, at, 300);
    const memberAt = positionAtTime(member, at, 300);
    if (hostAt === null || memberAt === null) continue;
    out.push({ second, drift: Math.abs(memberAt - hostAt), host: hostAt, member: memberAt });
  }
  return out;
}
