/**
 * Lane choice for scrolling 弹幕: every comment crosses the stage in the same time, so a longer
 * one moves faster. A lane takes a new comment when the last one there has fully entered (plus a
 * gap) and the new one cannot catch up with it before it leaves.
 */
export interface LaneOccupant {
  /** Width of the comment (px). */
  width: number;
  /** How far into its crossing it is (ms). */
  elapsed: number;
}

export const LANE_GAP_PX = 24;

/** Whether a comment `width` px wide may start in a lane whose last comment is `last`. */
export function laneIsFree(last: LaneOccupant | null, width: number, stageWidth: number, durationMs: number): boolean {
  if (!last) return true;
  const oldSpeed = (stageWidth + last.width) / durationMs;
  const tail = stageWidth + last.width - oldSpeed * last.elapsed;
  if (tail > stageWidth - LANE_GAP_PX) return false;
  const left = durationMs - last.elapsed;
  if (left <= 0) return true;
  const newSpeed = (stageWidth + width) / durationMs;
  return newSpeed * left <= stageWidth - LANE_GAP_PX;
}

/** The first free lane of `lanes` (index), or -1. */
export function pickLane(lanes: ReadonlyArray<LaneOccupant | null>, width: number, stageWidth: number, durationMs: number): number {
  return lanes.findIndex((last) => laneIsFree(last, width, stageWidth, durationMs));
}
