// A D1 binding that counts what the worker runs through it (tests only): the sessions it opens and
// with which constraint or bookmark, and every statement executed on a session or on the database
// itself (a batch counts its statements). It stands in for env.DB through the request's bindings
// (tests/worker/read-replication.test.ts; docs/decisions/0067-read-replication.md).
import { env } from "cloudflare:test";

export interface D1Count {
  /** The constraint or bookmark of each session opened, in order. */
  sessions: string[];
  /** Statements executed on a session, by the session's constraint or bookmark. */
  bySession: Map<string, number>;
  /** Statements executed on the database itself (no session: the primary). */
  onPrimary: number;
  /** The SQL of every statement executed, in order. */
  sql: string[];
}

export const newCount = (): D1Count => ({ sessions: [], bySession: new Map(), onPrimary: 0, sql: [] });

/** Statements executed in all. */
export const statementsOf = (count: D1Count): number => count.onPrimary + [...count.bySession.values()].reduce((a, b) => a + b, 0);

type Reader = Pick<D1Database, "prepare" | "batch">;

function countingReader(real: Reader, note: (sql: string) => void): Reader {
  const reals = new WeakMap<D1PreparedStatement, D1PreparedStatement>();
  const sqlOf = new WeakMap<D1PreparedStatement, string>();
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const counted = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values), sql),
      first: (column?: string) => (note(sql), column === undefined ? statement.first() : statement.first(column)),
      run: () => (note(sql), statement.run()),
      all: () => (note(sql), statement.all()),
      raw: (options?: { columnNames?: boolean }) => (note(sql), options?.columnNames ? statement.raw({ columnNames: true }) : statement.raw()),
    } as unknown as D1PreparedStatement;
    reals.set(counted, statement);
    sqlOf.set(counted, sql);
    return counted;
  };
  return {
    prepare: (sql: string) => wrap(real.prepare(sql), sql),
    batch: <T = unknown>(list: D1PreparedStatement[]) => {
      for (const statement of list) note(sqlOf.get(statement) ?? "?");
      return real.batch<T>(list.map((statement) => reals.get(statement) ?? statement));
    },
  };
}

/** The test's D1 (env.DB) counted into `count`. */
export function countingD1(count: D1Count, db: D1Database = env.DB): D1Database {
  const primary = countingReader(db, (sql) => {
    count.onPrimary++;
    count.sql.push(sql);
  });
  return {
    ...primary,
    exec: (query: string) => db.exec(query),
    dump: () => db.dump(),
    withSession(constraint?: string) {
      const name = constraint ?? "(none)";
      count.sessions.push(name);
      const session = db.withSession(constraint);
      const reader = countingReader(session, (sql) => {
        count.bySession.set(name, (count.bySession.get(name) ?? 0) + 1);
        count.sql.push(sql);
      });
      return { ...reader, getBookmark: () => session.getBookmark() };
    },
  };
}
