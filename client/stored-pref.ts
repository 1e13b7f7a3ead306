import { PREFS_KEY } from "../shared/stored-prefs";

/**
 * One field of the player preferences stored in this browser, read before React has loaded (the
 * early hls.js start, the early controls); undefined when none or when storage is unavailable —
 * the field's parser (shared/stored-prefs.ts) then gives its default, as the player would.
 */
export function storedPref(field: "quality" | "volume"): unknown {
  try {
    const raw = localStorage.getItem(PREFS_KEY);
    const prefs: unknown = raw ? JSON.parse(raw) : null;
    return prefs && typeof prefs === "object" ? (prefs as Record<string, unknown>)[field] : undefined;
  } catch {
    return undefined;
  }
}
