/**
 * The pure rules of a 弹幕 room's socket shards (docs/decisions/0065-danmaku-shards.md): which
 * shard a new socket joins, what a shard's object is named, and how one tick's batch of room
 * messages becomes the frames one socket receives.
 */
import type { DanmakuComment, ServerMessage } from "./model";

/** Default most sockets one shard object holds (DANMAKU_SHARD_SIZE overrides it). */
export const DEFAULT_SHARD_SIZE = 2000;

/** Shortest time (ms) between two batches the room sends each shard: at most this many frames a second reach a socket. */
export const SHARD_TICK_MS = 100;

/** The name of shard `index` of the room `key` (its Durable Object's name). `#` cannot occur in a room key. */
export const shardName = (key: string, index: number): string => `${key}#${index}`;

/**
 * The shard a new socket joins, given the sockets each live shard holds: the least loaded one
 * while it has room (the lowest index among equals), else the lowest index not in use — so a room
 * grows one shard at a time as it fills, and a small room is one shard.
 */
export function chooseShard(counts: ReadonlyMap<number, number>, size: number): number {
  let best = -1;
  let fewest = size;
  for (const [index, sockets] of [...counts].sort((a, b) => a[0] - b[0])) {
    if (sockets < fewest) [best, fewest] = [index, sockets];
  }
  if (best >= 0) return best;
  let free = 0;
  while (counts.has(free)) free++;
  return free;
}

/**
 * The frames of one batch for a socket that already has every comment up to id `after` (its hello
 * said so): comments in a row go out as one frame (`comment` for one, `comments` for several),
 * older ids are left out, deletes keep their place.
 */
export function framesFor(batch: readonly ServerMessage[], after: number): ServerMessage[] {
  const frames: ServerMessage[] = [];
  let run: DanmakuComment[] = [];
  const flush = () => {
    if (run.length === 1) frames.push({ type: "comment", comment: run[0] });
    else if (run.length > 1) frames.push({ type: "comments", comments: run });
    run = [];
  };
  for (const message of batch) {
    if (message.type === "comment") {
      if (message.comment.id > after) run.push(message.comment);
    } else if (message.type === "comments") {
      run.push(...message.comments.filter((c) => c.id > after));
    } else {
      flush();
      frames.push(message);
    }
  }
  flush();
  return frames;
}

/** The lowest comment id in a batch (Infinity when it holds none): a socket whose `after` is below it gets the batch's common frames. */
export function lowestId(batch: readonly ServerMessage[]): number {
  let lowest = Number.POSITIVE_INFINITY;
  for (const m of batch) {
    if (m.type === "comment") lowest = Math.min(lowest, m.comment.id);
    else if (m.type === "comments") for (const c of m.comments) lowest = Math.min(lowest, c.id);
  }
  return lowest;
}
