/**
 * 片头 / 片尾 in the player (docs/decisions/0092-intro-outro.md): an episode's markers (its own,
 * else the title's), whether a time is in the intro or the outro, where a resume may land, and
 * the outro countdown. Pure: shared/player/useIntroOutro.ts applies it.
 */
import type { Marker } from "../catalogue/schema";
import type { Video } from "../catalogue/types";

export type { Marker } from "../catalogue/schema";

export interface EpisodeMarkers {
  intro: Marker | null;
  outro: Marker | null;
}

/** Seconds of 即将播放下一集 before the next episode starts. */
export const OUTRO_COUNTDOWN_SECONDS = 5;

/** The markers of episode `episode` (1 for a film): the episode's own, else the title's. */
export function episodeMarkers(video: Pick<Video, "intro" | "outro" | "episodes">, episode: number): EpisodeMarkers {
  const own = video.episodes?.[episode - 1];
  return { intro: own?.intro ?? video.intro ?? null, outro: own?.outro ?? video.outro ?? null };
}

/** Whether `t` (seconds) is inside the intro, far enough from its end for skipping to matter. */
export function inIntro(t: number, intro: Marker | null): boolean {
  return intro !== null && t >= intro.start && t < intro.end - 0.5;
}

/** Whether `t` has reached the outro. */
export function inOutro(t: number, outro: Marker | null): boolean {
  return outro !== null && t >= outro.start && t < outro.end;
}

/**
 * Where to resume a saved position: a viewer who skips intros (自动跳过片头片尾) is never put
 * back into the middle of one — the position moves to the intro's end.
 */
export function resumeTarget(position: number, intro: Marker | null, autoSkip: boolean): number {
  return autoSkip && inIntro(position, intro) ? (intro as Marker).end : position;
}
