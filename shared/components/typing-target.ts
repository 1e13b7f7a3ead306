/** Where keys are text, so the page's shortcuts (the player's, the episode keys) stay out of the way. */

/** Input types that take no typed text: shortcuts still work while they have focus. */
const NON_TEXT_INPUTS = new Set(["range", "checkbox", "radio", "button", "submit", "reset", "color", "file", "image"]);

/** True when keys typed at `target` are text (text fields, selects, contenteditable): no shortcuts there. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(target.type);
}
