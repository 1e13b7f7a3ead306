import { SvgIcon } from "./SvgIcon";

/**
 * The title page's action icons (Material Design paths, Apache 2.0, 24×24): apart from the
 * player's (shared/player/icons.tsx), so the page's first JavaScript does not carry those.
 */
const ACTION_ICONS = {
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

export type ActionIconName = keyof typeof ACTION_ICONS;

export function ActionIcon({ name, size = 20 }: { name: ActionIconName; size?: number }) {
  return <SvgIcon d={ACTION_ICONS[name]} size={size} />;
}
