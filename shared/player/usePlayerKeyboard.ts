import { useEffect, useRef } from "react";
import { playerConfig } from "../playback/config";

export type PlayerCommand = "toggle" | "back" | "forward" | "volumeUp" | "volumeDown" | "fullscreen" | "mute" | "subtitles";

const KEYS: Readonly<Record<string, PlayerCommand>> = {
  " ": "toggle",
  k: "toggle",
  arrowleft: "back",
  arrowright: "forward",
  arrowup: "volumeUp",
  arrowdown: "volumeDown",
  f: "fullscreen",
  m: "mute",
  c: "subtitles",
};

/** Input types that take no typed text: shortcuts still work while they have focus. */
const NON_TEXT_INPUTS = new Set(["range", "checkbox", "radio", "button", "submit", "reset", "color", "file", "image"]);

/** True when keys typed at `target` are text (text fields, selects, contenteditable): no shortcuts there. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(target.type);
}

/** The player command of a key press, or null when the key is not a shortcut here. */
export function commandFor(event: KeyboardEvent): PlayerCommand | null {
  if (event.defaultPrevented || event.isComposing || event.ctrlKey || event.metaKey || event.altKey) return null;
  const command = KEYS[event.key.toLowerCase()];
  if (!command) return null;
  const target = event.target;
  if (isTypingTarget(target)) return null;
  // A focused slider moves with the arrow keys itself; a focused button or link is activated by Space.
  if (
    command !== "toggle" &&
    command !== "fullscreen" &&
    command !== "mute" &&
    command !== "subtitles" &&
    target instanceof HTMLInputElement &&
    target.type === "range"
  )
    return null;
  if (event.key === " " && target instanceof Element && target.closest("button, a, summary, [role=button], input, label")) {
    return target instanceof HTMLInputElement && target.type === "range" ? command : null;
  }
  if (event.repeat && (command === "toggle" || command === "fullscreen" || command === "mute" || command === "subtitles")) return null;
  return command;
}

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
