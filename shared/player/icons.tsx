import { SvgIcon } from "../components/SvgIcon";
import { EXIT_FULLSCREEN_PATH, FULLSCREEN_PATH, MUTED_PATH, PAUSE_PATH, PLAY_PATH, VOLUME_PATH } from "./icon-paths";

/** The player's icons: Material Design paths (Apache 2.0), 24×24 (the page's own: shared/components/action-icons.tsx). */
export const ICONS = {
  play: PLAY_PATH,
  pause: PAUSE_PATH,
  restart: "M12 5V1L7 6l5 5V7a6 6 0 1 1-6 6H4a8 8 0 1 0 8-8z",
  volume: VOLUME_PATH,
  muted: MUTED_PATH,
  fullscreen: FULLSCREEN_PATH,
  exitFullscreen: EXIT_FULLSCREEN_PATH,
  subtitles: "M20 4H4a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2zM4 12h4v2H4zm10 6H4v-2h10zm6 0h-4v-2h4zm0-4H10v-2h10z",
  cast: "M21 3H3a2 2 0 0 0-2 2v3h2V5h18v14h-7v2h7a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2zM1 18v3h3a3 3 0 0 0-3-3zm0-4v2a5 5 0 0 1 5 5h2a7 7 0 0 0-7-7zm0-4v2a9 9 0 0 1 9 9h2c0-6.08-4.93-11-11-11z",
  pip: "M19 11h-8v6h8zm4 8V5a2 2 0 0 0-2-2H3a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h18a2 2 0 0 0 2-2zm-2 0H3V5h18z",
} as const;

export type IconName = keyof typeof ICONS;

/** A player icon (SvgIcon). */
export function Icon({ name, size = 24 }: { name: IconName; size?: number }) {
  return <SvgIcon d={ICONS[name]} size={size} />;
}
