import { env, runInDurableObject } from "cloudflare:test";
import { PLAY_SHARDS, playShard } from "../../../worker/plays/shard";

const shards = () => Array.from({ length: PLAY_SHARDS }, (_, i) => playShard(env, i));

/** Sends every play the shards (worker/plays/shard.ts) buffer to D1 now, as their alarms would within FLUSH_INTERVAL_MS. */
export async function flushPlays(): Promise<void> {
  await Promise.all(shards().map((shard) => shard.flush()));
}

/** Plays counted but not yet in D1, over all shards. */
export async function waitingPlays(): Promise<number> {
  let sum = 0;
  for (const shard of shards()) sum += await shard.waiting();
  return sum;
}

/** Rows of a table in every shard's own storage (what the objects keep). */
export async function shardRows<Row extends Record<string, SqlStorageValue>>(sql: string, ...bindings: SqlStorageValue[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const shard of shards()) {
    rows.push(...(await runInDurableObject(shard, (_, state) => state.storage.sql.exec<Row>(sql, ...bindings).toArray())));
  }
  return rows;
}
