/**
 * The player's keyboard shortcuts (Space/K, ←/→, ↑/↓, F, M, C): which key press is which command.
 * Pure, so the player (shared/player/usePlayerKeyboard.ts) and the early controls that work
 * before it hydrates (client/inline/early-controls.ts) read the same keys.
 */
import { isTypingTarget } from "../components/typing-target";

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

/** The player command of a key press, or null when the key is not a shortcut here. */
export function commandFor(event: KeyboardEvent): PlayerCommand | null {
  if (event.defaultPrevented || event.isComposing || event.ctrlKey || event.metaKey || event.altKey) return null;
  const command = KEYS[event.key.toLowerCase()];
  if (!command) return null;
  const target = event.target;
  if (isTypingTarget(target)) return null;
  // A focused slider or radio group (the 评分 stars) moves with the arrow keys itself; a focused button or link is activated by Space.
  if (
    command !== "toggle" &&
    command !== "fullscreen" &&
    command !== "mute" &&
    command !== "subtitles" &&
    target instanceof HTMLInputElement &&
    (target.type === "range" || target.type === "radio")
  )
    return null;
  if (event.key === " " && target instanceof Element && target.closest("button, a, summary, [role=button], input, label")) {
    return target instanceof HTMLInputElement && target.type === "range" ? command : null;
  }
  if (event.repeat && (command === "toggle" || command === "fullscreen" || command === "mute" || command === "subtitles")) return null;
  return command;
}
