import { useEffect, useState, type RefObject } from "react";

/** Shows (as "hidden": loaded, cues active, not drawn by the browser) or turns off a text track. */
function setTrackOn(track: TextTrack, on: boolean): void {
  track.mode = on ? "hidden" : "disabled";
}

/**
 * The zh-CN subtitles of the <track> element, drawn by the player itself (readable on a 360 px
 * phone and inside the player's own fullscreen): the track is "hidden" (loaded, cues active, not
 * drawn by the browser) while 字幕 is on and "disabled" (not even fetched) while it is off.
 * Returns the text of the cues active now ("" while off). Turning the track on makes the browser
 * recompute its active cues, which fires `cuechange`.
 */
export function useSubtitles(trackRef: RefObject<HTMLTrackElement | null>, on: boolean): string {
  const [text, setText] = useState("");
  useEffect(() => {
    const track = trackRef.current?.track;
    if (!track) return;
    setTrackOn(track, on);
    if (!on) return;
    const read = () => setText(Array.from(track.activeCues ?? [], (cue) => (cue as VTTCue).text).join("\n"));
    track.addEventListener("cuechange", read);
    return () => track.removeEventListener("cuechange", read);
  }, [trackRef, on]);
  return on ? text : "";
}
