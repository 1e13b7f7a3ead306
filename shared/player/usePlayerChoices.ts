import type { RefObject } from "react";
import type { QualityChoice } from "../library";
import type { SubtitleLanguage } from "../stream/contract";
import type { usePlaybackMemory } from "./usePlaybackMemory";
import type { usePlayerCommands } from "./usePlayerCommands";
import type { StreamState } from "./useStream";

/**
 * What the viewer picks in the player's menus and prompts, applied and remembered: 字幕 on or off
 * (the C key) and its language, 清晰度, and 继续播放 from the stored position. (A hook by name only:
 * it holds no state of its own; it is given the element's ref.)
 */
export function usePlayerChoices(
  videoRef: RefObject<HTMLVideoElement | null>,
  memory: ReturnType<typeof usePlaybackMemory>,
  cmd: ReturnType<typeof usePlayerCommands>,
  stream: StreamState,
) {
  const { setPrefs, lib } = memory;
  return {
    toggleSubtitles: () => setPrefs({ subtitles: !lib.prefs.subtitles }),
    chooseSubtitles: (choice: SubtitleLanguage | "off") => setPrefs(choice === "off" ? { subtitles: false } : { subtitles: true, subtitleLanguage: choice }),
    chooseQuality: (choice: QualityChoice) => {
      setPrefs({ quality: choice });
      stream.setQuality(choice);
    },
    resume: () => {
      cmd.seek(memory.resumeAt ?? 0);
      memory.dismissResume();
      if (videoRef.current?.paused) void cmd.start();
    },
  };
}
