/**
 * The catalogue import's statements (shared/catalogue/import-plan.ts) run on a D1 binding: the
 * local one through wrangler's platform proxy (scripts/catalogue/import.ts) or workerd's in the
 * worker tests.
 */
import type { CatalogueDb } from "../../shared/catalogue/import-plan";

/** Statements per D1 batch: large enough to be quick, small enough for one request. */
const BATCH = 400;

/** A CatalogueDb over a D1 binding (the local proxy's, or workerd's in the tests). */
export function d1CatalogueDb(db: D1Database): CatalogueDb {
  return {
    async rows<T>(sql: string) {
      return (await db.prepare(sql).all<T>()).results;
    },
    async run(statements) {
      for (let i = 0; i < statements.length; i += BATCH) await db.batch(statements.slice(i, i + BATCH).map((s) => db.prepare(s.sql).bind(...s.params)));
    },
  };
}
