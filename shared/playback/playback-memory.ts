import { playerConfig } from "./config";

/** What the player knows of the video when it may save its position. */
export interface PlaybackPoint {
  currentTime: number;
  duration: number;
}

/**
 * Whether the position is worth saving: the video's length is known, it has played past 0, and
 * the player has not given up on it (`frozen`).
 */
export const canSavePosition = ({ currentTime, duration }: PlaybackPoint, frozen: boolean): boolean => !frozen && duration > 0 && currentTime > 0;

/** Whether playback moved far enough (either way) from the last saved position to save again. */
export const savePositionDue = (currentTime: number, lastSaved: number, everySeconds: number = playerConfig.saveEverySeconds): boolean =>
  Math.abs(currentTime - lastSaved) >= everySeconds;

/**
 * The position to store: where the video is, except while 从 m:ss 继续播放 offers a later one
 * (`offered`), which the autoplay from the start must not overwrite.
 */
export const positionToSave = (currentTime: number, offered: number | null): number => (offered !== null && currentTime < offered ? offered : currentTime);
