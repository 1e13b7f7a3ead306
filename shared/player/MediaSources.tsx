import { HLS_MIME, type initialSource } from "../playback/engine-choice";
import { subtitlesPath, SUBTITLE_NAMES, type SubtitleLanguage } from "../stream/contract";

/**
 * The <video>'s children as the server renders them: the source the page starts with (the master
 * playlist for a browser that plays HLS itself, the MP4 under `?engine=progressive`, none where
 * hls.js will attach) and a captions track per subtitle language of media number `n`.
 */
export function MediaSources(p: { source: ReturnType<typeof initialSource>; master: string; mp4: string; n: string; languages: readonly SubtitleLanguage[] }) {
  return (
    <>
      {p.source === "hls" ? <source src={p.master} type={HLS_MIME} /> : p.source === "mp4" ? <source src={p.mp4} type="video/mp4" /> : null}
      {p.languages.map((language) => (
        <track key={language} kind="captions" src={subtitlesPath(p.n, language)} srcLang={language} label={SUBTITLE_NAMES[language]} />
      ))}
    </>
  );
}
