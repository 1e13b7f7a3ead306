import { useEffect, useState, type RefObject } from "react";
import type { SubtitleLanguage } from "../stream/contract";

/** A cue's text as plain text: WebVTT escapes (&amp;) and any markup resolved. */
function cueText(cue: TextTrackCue): string {
  const vtt = cue as VTTCue;
  return typeof vtt.getCueAsHTML === "function" ? (vtt.getCueAsHTML().textContent ?? "") : vtt.text;
}

/**
 * The subtitles of the <video>'s <track> elements (one per language), drawn by the player itself
 * (readable on a 360 px phone and inside the player's own fullscreen): the chosen language's track
 * is "hidden" (loaded, cues active, not drawn by the browser), every other one "disabled" (not
 * even fetched), all of them while 字幕 is off (`language` null). Returns the text of the cues
 * active now ("" while off). Turning a track on makes the browser recompute its active cues,
 * which fires `cuechange`.
 */
export function useSubtitles(videoRef: RefObject<HTMLVideoElement | null>, language: SubtitleLanguage | null): string {
  const [text, setText] = useState("");
  useEffect(() => {
    const tracks = Array.from(videoRef.current?.textTracks ?? []);
    let shown: TextTrack | null = null;
    for (const track of tracks) {
      const on = language !== null && track.language === language;
      track.mode = on ? "hidden" : "disabled";
      if (on) shown = track;
    }
    const track = shown;
    if (!track) return;
    const read = () => setText(Array.from(track.activeCues ?? [], cueText).join("\n"));
    read();
    track.addEventListener("cuechange", read);
    return () => track.removeEventListener("cuechange", read);
  }, [videoRef, language]);
  return language === null ? "" : text;
}
