import { formatTime } from "../format";

/**
 * The names the player's state buttons and clock show (their aria-label, and the title with the
 * shortcut key). One source for the player (shared/player/PlayerControls.tsx) and the early
 * controls that answer before it hydrates (client/inline/early-controls.ts).
 */
export const playLabel = (playing: boolean): string => (playing ? "暂停" : "播放");
export const muteLabel = (muted: boolean): string => (muted ? "取消静音" : "静音");
export const fullscreenLabel = (fullscreen: boolean): string => (fullscreen ? "退出全屏" : "全屏");

/** A button's title: its name and its shortcut key, "暂停 (K)". */
export const withKey = (label: string, key: "K" | "M" | "F"): string => `${label} (${key})`;

/** The clock and the progress bar's spoken value: "1:05 / 24:00". */
export const clockText = (time: number, duration: number): string => `${formatTime(time)} / ${formatTime(duration)}`;
