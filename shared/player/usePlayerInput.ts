import type { RefObject } from "react";
import { playerConfig } from "../playback/config";
import type { ReportAt } from "./danmaku/DanmakuMount";
import type { usePlayerCommands } from "./usePlayerCommands";
import { runShortcut, usePlayerKeyboard } from "./usePlayerKeyboard";
import { useTouchGestures } from "./useTouchGestures";

/**
 * The viewer's hands on the player: touch gestures (a tap shows the hidden controls or plays and
 * pauses, a double tap on a side seeks, a long press reports the 弹幕 under it or holds the fast
 * rate) and the keyboard shortcuts. Each shows the controls. Returns the gestures' handlers and hint.
 */
export function usePlayerInput(
  videoRef: RefObject<HTMLVideoElement | null>,
  cmd: ReturnType<typeof usePlayerCommands>,
  controls: { playing: boolean; visible: boolean; show: () => void },
  more: { reportDanmakuAt: RefObject<ReportAt | null>; toggleSubtitles: () => void; fullscreen: { toggle: () => void } },
) {
  const { show } = controls;
  const gestures = useTouchGestures({
    onTap: (hidden) => (hidden && controls.playing ? show() : cmd.togglePlay()),
    onSeekBy: (delta) => {
      show();
      cmd.seekBy(delta);
    },
    onLongPressAt: (x, y) => more.reportDanmakuAt.current?.(x, y) ?? false,
    onHoldStart: () => cmd.holdRate(playerConfig.longPressRate),
    onHoldEnd: cmd.restoreRate,
    controlsHidden: () => !controls.visible,
  });
  usePlayerKeyboard((command) => {
    show();
    runShortcut(command, videoRef.current as HTMLVideoElement, { ...cmd, toggleSubtitles: more.toggleSubtitles, toggleFullscreen: more.fullscreen.toggle });
  });
  return gestures;
}
