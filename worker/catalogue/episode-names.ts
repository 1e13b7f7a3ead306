/**
 * The names of named episodes (variety shows: 第1期：初次见面 …) of a few titles, for the cards the
 * visitor's library shows (继续观看 names the episode watched last). Titles whose episodes have
 * no names are missing from the answer: their episodes are 第N集.
 */
import { resultsOf } from "./cards";

interface NameRow {
  title_id: string;
  number: number;
  name: string;
}

/**
 * Episode names by title id, then by episode number ("1", "2" …). One query whatever the number
 * of ids: they are one JSON parameter (D1 binds at most 100 per statement), duplicates once.
 */
export async function episodeNamesOf(db: D1Database, ids: readonly string[]): Promise<Map<string, Record<string, string>>> {
  const names = new Map<string, Record<string, string>>();
  if (ids.length === 0) return names;
  const result = await db
    .prepare("SELECT title_id, number, name FROM episodes WHERE name IS NOT NULL AND title_id IN (SELECT value FROM json_each(?)) ORDER BY title_id, number")
    .bind(JSON.stringify([...new Set(ids)]))
    .all<NameRow>();
  for (const row of resultsOf<NameRow>(result)) {
    const byNumber = names.get(row.title_id) ?? {};
    byNumber[String(row.number)] = row.name;
    names.set(row.title_id, byNumber);
  }
  return names;
}
