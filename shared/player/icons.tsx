import { EXIT_FULLSCREEN_PATH, FULLSCREEN_PATH, MUTED_PATH, PAUSE_PATH, PLAY_PATH, VOLUME_PATH } from "./icon-paths";

/** Material Design icon paths (Apache 2.0), 24×24. */
export const ICONS = {
  play: PLAY_PATH,
  pause: PAUSE_PATH,
  restart: "M12 5V1L7 6l5 5V7a6 6 0 1 1-6 6H4a8 8 0 1 0 8-8z",
  volume: VOLUME_PATH,
  muted: MUTED_PATH,
  fullscreen: FULLSCREEN_PATH,
  exitFullscreen: EXIT_FULLSCREEN_PATH,
  subtitles: "M20 4H4a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2zM4 12h4v2H4zm10 6H4v-2h10zm6 0h-4v-2h4zm0-4H10v-2h10z",
  pip: "M19 11h-8v6h8zm4 8V5a2 2 0 0 0-2-2H3a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h18a2 2 0 0 0 2-2zm-2 0H3V5h18z",
  /** Material "playlist add" / "playlist add check". */
  follow: "M14 10H3v2h11zm0-4H3v2h11zM3 16h7v-2H3zm13-2v-4h-2v4h-4v2h4v4h2v-4h4v-2z",
  followed: "M14 10H2v2h12zm0-4H2v2h12zM2 16h8v-2H2zm19.5-4.5L23 13l-6.99 7-4.51-4.5L13 14l3.01 3z",
  /** Material "watch later". */
  later: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm4.2 14.2L11 13V7h1.5v5.2l4.5 2.7z",
  heart:
    "M12 21.35l-1.45-1.32C5.4 15.36 2 12.28 2 8.5 2 5.42 4.42 3 7.5 3c1.74 0 3.41.81 4.5 2.09C13.09 3.81 14.76 3 16.5 3 19.58 3 22 5.42 22 8.5c0 3.78-3.4 6.86-8.55 11.54z",
  share:
    "M18 16.08c-.76 0-1.44.3-1.96.77L8.91 12.7c.05-.23.09-.46.09-.7s-.04-.47-.09-.7l7.05-4.11A3 3 0 1 0 15 5c0 .24.04.47.09.7L8.04 9.81a3 3 0 1 0 0 4.38l7.12 4.16c-.05.21-.08.43-.08.65A2.92 2.92 0 1 0 18 16.08z",
  report: "M14.4 6 14 4H5v17h2v-7h5.6l.4 2h7V6z",
} as const;

export type IconName = keyof typeof ICONS;

/** A decorative icon: the button around it carries the accessible name. */
export function Icon({ name, size = 24 }: { name: IconName; size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true">
      <path d={ICONS[name]} fill="currentColor" />
    </svg>
  );
}
