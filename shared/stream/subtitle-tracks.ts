/**
 * The subtitle languages of a title's media and how the master playlist lists them: one
 * EXT-X-MEDIA per language (NAME 简体中文, 繁體中文, English …, LANGUAGE the tag), every variant in
 * their group. Used after packing (scripts/media/titles.ts adds the built-in titles' other
 * languages), by the 管理后台's upload and by `npm run catalogue -- add --subtitles`: the master
 * is rewritten as text, so whatever else a packer wrote in it stays as it was. Pure.
 */
import { streamNames, SUBTITLE_NAMES, type SubtitleLanguage } from "./contract";
import { writeMediaPlaylist } from "./hls";

import { orderedLanguages } from "./subtitle-languages";

export { orderedLanguages, subtitleLanguagesOf } from "./subtitle-languages";

/** GROUP-ID of the subtitle renditions. */
export const SUBTITLE_GROUP = "subs";

const SUBTITLE_MEDIA = /^#EXT-X-MEDIA:(?=.*TYPE=SUBTITLES)/;
const HEADER_LINE = /^#EXT(?:M3U|-X-VERSION:|-X-INDEPENDENT-SEGMENTS)/;

/** A master playlist that lists exactly `languages` as its subtitles (none: no subtitle group). */
export function masterWithSubtitles(master: string, languages: readonly SubtitleLanguage[]): string {
  const lines = master.replace(/\r\n?/g, "\n").replace(/\n+$/, "").split("\n");
  if (lines[0] !== "#EXTM3U" || !lines.some((l) => l.startsWith("#EXT-X-STREAM-INF:"))) throw new RangeError("not a master playlist");
  const ordered = orderedLanguages(languages);
  const media = ordered.map(
    (language) =>
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="${SUBTITLE_GROUP}",NAME="${SUBTITLE_NAMES[language]}",LANGUAGE="${language}",` +
      `DEFAULT=NO,AUTOSELECT=YES,URI="${streamNames.subtitlePlaylistOf(language)}"`,
  );
  const kept = lines
    .filter((l) => !SUBTITLE_MEDIA.test(l))
    .map((l) => {
      if (!l.startsWith("#EXT-X-STREAM-INF:")) return l;
      const without = l.replace(/,SUBTITLES="[^"]*"/, "").replace(/:SUBTITLES="[^"]*",?/, ":");
      return ordered.length > 0 ? `${without},SUBTITLES="${SUBTITLE_GROUP}"` : without;
    });
  let at = 0;
  while (at < kept.length && HEADER_LINE.test(kept[at])) at++;
  return [...kept.slice(0, at), ...media, ...kept.slice(at)].join("\n") + "\n";
}

/** The one-segment subtitle playlist of a language, covering `duration` seconds. */
export function subtitlePlaylistOf(language: SubtitleLanguage, duration: number): string {
  return writeMediaPlaylist({ segments: [{ duration, uri: streamNames.subtitlesOf(language) }] });
}

/** The X-TIMESTAMP-MAP header line of a WebVTT file, when it has one (a new language reuses the packer's). */
export function timestampMapOf(vtt: string): string | null {
  return /^X-TIMESTAMP-MAP=[^\r\n]*$/m.exec(vtt)?.[0] ?? null;
}
