/** Titles by id: the detail page's title, related titles, a random next title, cards by ids. */
import type { CardItem } from "../../shared/catalogue/card";
import type { Video } from "../../shared/catalogue/types";
import { entryEpisode, type Library } from "../../shared/library";
import { TITLES_TABLE } from "../../shared/catalogue/import-plan";
import { summaryOf, type RatingSummary } from "../../shared/ratings";
import { CARD_COLUMNS, cardsFrom, HITS_JOIN, resultsOf, type CardRow } from "./cards";

export interface TitleDetail {
  video: Video;
  /** Real plays (title_hits), 0 when none. */
  hits: number;
  /** Up to `relatedCount` random titles sharing a category, never this one. */
  related: CardItem[];
  /** A random other title (the spec's random next video), null when the catalogue has one title. */
  nextVideoId: string | null;
  /** The viewers' ratings (title_rating_totals, migrations/0024_ratings.sql). */
  ratings: RatingSummary;
}

/** One title and what its page shows around it: one round trip (5 statements). */
export async function titleDetail(db: D1Database, id: string, relatedCount: number): Promise<TitleDetail | null> {
  const [entry, hits, related, next, ratings] = await db.batch([
    db.prepare("SELECT entry FROM titles WHERE id = ?").bind(id),
    db.prepare("SELECT total FROM title_hits WHERE title_id = ?").bind(id),
    db
      .prepare(
        `SELECT ${CARD_COLUMNS} FROM titles t ${HITS_JOIN}
         WHERE t.id IN (SELECT title_id FROM title_categories WHERE category IN (SELECT category FROM title_categories WHERE title_id = ?1))
           AND t.id != ?1 ORDER BY random() LIMIT ?2`,
      )
      .bind(id, relatedCount),
    db.prepare("SELECT id FROM titles WHERE id != ? ORDER BY random() LIMIT 1").bind(id),
    db.prepare("SELECT count, sum, s1, s2, s3, s4, s5 FROM title_rating_totals WHERE title_id = ?").bind(id),
  ]);
  const row = resultsOf<{ entry: string }>(entry)[0];
  if (!row) return null;
  return {
    video: JSON.parse(row.entry) as Video,
    hits: resultsOf<{ total: number }>(hits)[0]?.total ?? 0,
    related: cardsFrom(resultsOf<CardRow>(related)),
    nextVideoId: resultsOf<{ id: string }>(next)[0]?.id ?? null,
    ratings: summaryOf(resultsOf<Parameters<typeof summaryOf>[0]>(ratings)[0]),
  };
}

/** Whether a title exists (弹幕 rooms, favourites). */
export async function titleExists(db: D1Database, id: string): Promise<boolean> {
  return (await db.prepare("SELECT 1 AS found FROM titles WHERE id = ?").bind(id).first<{ found: number }>()) !== null;
}

/** A title's duration ("HH:MM:SS" or "MM:SS"), or null when there is no such title. */
export async function titleDuration(db: D1Database, id: string): Promise<string | null> {
  return (await db.prepare("SELECT duration FROM titles WHERE id = ?").bind(id).first<{ duration: string }>())?.duration ?? null;
}

/**
 * The cards of `ids`, in the order given (duplicates once); unknown ids are left out. One query
 * whatever the number: the ids are one JSON parameter (D1 binds at most 100 per statement).
 */
export async function cardsByIds(db: D1Database, ids: readonly string[]): Promise<CardItem[]> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  const rows = await db
    .prepare(`SELECT ${CARD_COLUMNS} FROM titles t ${HITS_JOIN} WHERE t.id IN (SELECT value FROM json_each(?))`)
    .bind(JSON.stringify(wanted))
    .all<CardRow>();
  const byId = new Map(cardsFrom(rows.results).map((c) => [c.id, c]));
  return wanted.flatMap((id) => byId.get(id) ?? []);
}

/**
 * A library without the titles (and episodes) the catalogue does not have: what an account
 * stores (PUT /api/auth/user), so made-up ids never reach the account's metadata.
 */
export async function knownLibrary(db: D1Database, library: Library): Promise<Library> {
  const ids = [...new Set([...library.favourites, ...library.history.map((h) => h.id)])];
  if (ids.length === 0) return library;
  const { results } = await db
    // Every title, published or not: a title taken down for a while stays in the libraries that hold it.
    .prepare(`SELECT id, episode_count FROM ${TITLES_TABLE} WHERE id IN (SELECT value FROM json_each(?))`)
    .bind(JSON.stringify(ids))
    .all<{ id: string; episode_count: number }>();
  const episodes = new Map(results.map((r) => [r.id, r.episode_count]));
  return {
    favourites: library.favourites.filter((id) => episodes.has(id)),
    history: library.history.filter((h) => entryEpisode(h) <= (episodes.get(h.id) ?? 0)),
  };
}

/** A title's catalogue entry, or null when there is no such title (the share image). */
export async function titleEntry(db: D1Database, id: string): Promise<Video | null> {
  const row = await db.prepare("SELECT entry FROM titles WHERE id = ?").bind(id).first<{ entry: string }>();
  return row ? (JSON.parse(row.entry) as Video) : null;
}
