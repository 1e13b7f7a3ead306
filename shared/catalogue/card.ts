import type { SerialState } from "./schema";
import type { Video } from "./types";
import { normaliseMediaPath } from "./categories";

/**
 * What a card shows of a title: carried in every page's loader data, so that no component needs
 * the catalogue. The worker stores it with each title (worker/catalogue/) and reads it per page.
 */
export interface TitleCard {
  id: string;
  title: string;
  /** "/N.webp" */
  cover: string;
  year: number;
  rating: number;
  duration: string;
  /** The first two categories. */
  category: string[];
  /** The first three tags. */
  tags: string[];
  description: string;
  /** 更新状态 as written in the catalogue (更新至12集, 全30集, HD …), if any. */
  status: string | null;
  /** Episodes present (1 for a single title). */
  episodeCount: number;
  /** Episodes planned in all, when the catalogue says. */
  totalEpisodes: number | null;
  /** The 连载 state when the catalogue sets it (absent: derived, shared/schedule.ts isEnded). */
  serial?: SerialState;
}

/** A card of the visitor's library (GET /api/titles): plus the names of named episodes, by number. */
export interface LibraryCard extends TitleCard {
  episodeNames?: Record<string, string>;
}

/** Episode n's name on a library card: its own name, or 第N集. */
export function libraryEpisodeName(card: LibraryCard, n: number): string {
  return card.episodeNames?.[String(n)] ?? `第${n}集`;
}

/** A card on a list: the title's card fields and its view count (real plays, or the spec's random count). */
export interface CardItem extends TitleCard {
  views: number;
  /** The 评论区's count, when there are comments (shown where the card has room). */
  comments?: number;
}

/** The card of a catalogue entry. */
export function cardOf(video: Video): TitleCard {
  return {
    id: video.id,
    title: video.title,
    cover: normaliseMediaPath(video.coverImage),
    year: video.year,
    rating: video.rating,
    duration: video.duration,
    category: video.category.slice(0, 2),
    tags: video.tags.slice(0, 3),
    description: video.description,
    status: video.status ?? null,
    episodeCount: video.episodes?.length ?? 1,
    totalEpisodes: video.totalEpisodes ?? null,
    ...(video.serial ? { serial: video.serial } : {}),
  };
}

/** What a card says of its episodes: the catalogue's 更新状态, else 更新至N集 / 全N集 for a series (shared/episodes.ts's episodeStatus for cards). */
export function cardStatus(card: Pick<TitleCard, "status" | "episodeCount" | "totalEpisodes">): string | null {
  if (card.status) return card.status;
  if (card.episodeCount <= 1 && card.totalEpisodes === null) return null;
  return card.totalEpisodes !== null && card.totalEpisodes > card.episodeCount ? `更新至${card.episodeCount}集` : `全${card.episodeCount}集`;
}

/** Whether a card's title is complete (the rule of shared/schedule.ts isEnded, from what a card holds). */
export function cardEnded(card: Pick<TitleCard, "serial" | "status" | "episodeCount" | "totalEpisodes">): boolean {
  if (card.serial !== undefined) return card.serial === "ended";
  if (/^更新至/.test(card.status ?? "")) return false;
  return card.totalEpisodes === null || card.episodeCount >= card.totalEpisodes;
}

/** A series' card (the title page offers 追剧): episodes, a planned count or a 连载 state. */
export function isSeriesCard(card: TitleCard): boolean {
  return card.episodeCount > 1 || card.totalEpisodes !== null || card.serial !== undefined;
}
