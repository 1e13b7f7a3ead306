/**
 * Which subtitle languages a title's or episode's media have, in the menu's order. Apart from
 * subtitle-tracks.ts (the master playlist's rewriting), so the player page does not carry the
 * playlist writer. Pure.
 */
import type { Video } from "../catalogue/types";
import { DEFAULT_SUBTITLE_LANGUAGES, SUBTITLE_LANGUAGES, type SubtitleLanguage } from "./contract";

/** Languages in the menu's order (SUBTITLE_LANGUAGES), each once. */
export function orderedLanguages(languages: readonly SubtitleLanguage[]): SubtitleLanguage[] {
  return SUBTITLE_LANGUAGES.filter((l) => languages.includes(l));
}

/**
 * The subtitle languages of episode `episode` (1 for a single title): the episode's own list,
 * else (episode 1 and single titles) the title's, else what the packers write (zh-CN).
 */
export function subtitleLanguagesOf(video: Pick<Video, "subtitles" | "episodes">, episode = 1): SubtitleLanguage[] {
  const own = video.episodes?.[episode - 1]?.subtitles;
  const list = own ?? (episode === 1 ? video.subtitles : undefined) ?? DEFAULT_SUBTITLE_LANGUAGES;
  return orderedLanguages(list);
}

/**
 * The subtitles shown: the remembered language where the media has it, else the media's first;
 * none while 字幕 is off, before the preferences are read (`prefs` null), or without subtitles.
 */
export function chosenSubtitleLanguage(
  languages: readonly SubtitleLanguage[],
  prefs: { subtitles: boolean; subtitleLanguage: SubtitleLanguage } | null,
): SubtitleLanguage | null {
  if (!prefs?.subtitles || languages.length === 0) return null;
  return languages.includes(prefs.subtitleLanguage) ? prefs.subtitleLanguage : (languages[0] ?? null);
}
