/**
 * Where the visitor's library and player preferences are kept in the browser (localStorage keys,
 * read and written by client/library-provider.tsx) and the stored 清晰度's rule. Apart from
 * shared/library.ts, which holds React's context, because the early hls.js start reads the stored
 * 清晰度 before React has loaded (client/hls-start-boot.ts).
 */

/** localStorage keys. */
export const LIBRARY_KEY = "yingshi:library";
export const PREFS_KEY = "yingshi:prefs";
/** Id of the account whose library LIBRARY_KEY mirrors; absent while the library belongs to nobody (client/library-sync.ts). */
export const LIBRARY_OWNER_KEY = "yingshi:library-owner";
/** 追剧 and 稍后再看 (shared/series-lists.ts), and the account they mirror (client/lists-sync.ts). */
export const LISTS_KEY = "yingshi:lists";
export const LISTS_OWNER_KEY = "yingshi:lists-owner";

/** 清晰度 choice: automatic (adaptive) or a rendition height such as 720. */
export type QualityChoice = "auto" | number;

/** A stored 清晰度: "auto" or a plausible rendition height (144–4320). */
export function parseQuality(raw: unknown): QualityChoice {
  return typeof raw === "number" && Number.isInteger(raw) && raw >= 144 && raw <= 4320 ? raw : "auto";
}

/** The player's volume when the visitor has not chosen one. */
export const DEFAULT_VOLUME = 0.8;

/** A stored volume (0–1), or DEFAULT_VOLUME when there is none or it is not a volume. */
export function parseVolume(raw: unknown): number {
  return typeof raw === "number" && Number.isFinite(raw) ? Math.min(1, Math.max(0, raw)) : DEFAULT_VOLUME;
}
