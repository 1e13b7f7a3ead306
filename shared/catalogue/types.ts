import type { EpisodeEntry, TitleEntry } from "./schema";

/**
 * One title of the catalogue: an entry of catalogue/titles.json as validated by
 * shared/catalogue/schema.ts. videoFile is "N.mp4" or "/N.mp4" in the file and always
 * "/N.mp4" once loaded (scripts/catalogue/titles.ts).
 */
export type Video = TitleEntry;

/** One episode of a series; episode N is `episodes[N - 1]`. */
export type Episode = EpisodeEntry;
