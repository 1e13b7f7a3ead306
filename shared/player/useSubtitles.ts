import { useEffect, useState, type RefObject } from "react";

/**
 * The zh-CN subtitles of the <track> element, drawn by the player itself (readable on a 360 px
 * phone and inside the player's own fullscreen): the track is "hidden" (loaded, cues active, not
 * drawn by the browser) while 字幕 is on and "disabled" (not even fetched) while it is off.
 * Returns the text of the cues active now.
 */
export function useSubtitles(trackRef: RefObject<HTMLTrackElement | null>, on: boolean): string {
  const [text, setText] = useState("");
  useEffect(() => {
    const track = trackRef.current?.track;
    if (!track) return;
    track.mode = on ? "hidden" : "disabled";
    if (!on) {
      setText("");
      return;
    }
    const read = () => {
      const cues = track.activeCues ? Array.from(track.activeCues) : [];
      setText(cues.map((cue) => (cue as VTTCue).text).join("\n"));
    };
    read();
    track.addEventListener("cuechange", read);
    return () => track.removeEventListener("cuechange", read);
  }, [trackRef, on]);
  return text;
}
