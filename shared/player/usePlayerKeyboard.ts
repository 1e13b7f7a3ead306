import { useEffect, useRef } from "react";
import { playerConfig } from "../playback/config";
import { commandFor, type PlayerCommand } from "./shortcuts";

export type { PlayerCommand } from "./shortcuts";

/** Page-wide player shortcuts (Space/K, ←/→, ↑/↓, F, M, C); the page does not scroll for the keys it uses. */
export function usePlayerKeyboard(onCommand: (command: PlayerCommand) => void): void {
  const latest = useRef(onCommand);
  useEffect(() => {
    latest.current = onCommand;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const command = commandFor(event);
      if (!command) return;
      event.preventDefault();
      latest.current(command);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}

/** What the shortcuts act on (the player's commands plus its subtitle and fullscreen switches). */
export interface ShortcutActions {
  togglePlay(): void;
  seekBy(delta: number): void;
  setVolume(volume: number, mute?: boolean): void;
  toggleMute(): void;
  toggleSubtitles(): void;
  toggleFullscreen(): void;
}

/** Carries out a shortcut's command on `video` (seek and volume steps from the player's config). */
export function runShortcut(command: PlayerCommand, video: HTMLVideoElement, actions: ShortcutActions): void {
  if (command === "toggle") actions.togglePlay();
  else if (command === "back") actions.seekBy(-playerConfig.seekStep);
  else if (command === "forward") actions.seekBy(playerConfig.seekStep);
  else if (command === "volumeUp") actions.setVolume(video.volume + playerConfig.volumeStep);
  else if (command === "volumeDown") actions.setVolume(video.volume - playerConfig.volumeStep, video.muted);
  else if (command === "mute") actions.toggleMute();
  else if (command === "subtitles") actions.toggleSubtitles();
  else actions.toggleFullscreen();
}
