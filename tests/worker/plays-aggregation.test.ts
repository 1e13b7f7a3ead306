// The play counter under a spike (issue 35): beacons are decided and buffered by the play shards
// (worker/plays/shard.ts) and reach D1 in flushes (worker/plays/flush.ts) — a bounded number of
// D1 batches however many plays, no count lost or doubled when the objects restart, even in the
// middle of a flush. docs/decisions/0060-plays-aggregation.md.
import { abortAllDurableObjects, env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyFlush } from "../../worker/plays/flush";
import { FLUSH_INTERVAL_MS, PLAY_SHARDS } from "../../worker/plays/shard";
import { flushPlays, waitingPlays } from "./helpers/plays";
import { call, signUp, uniqueIp, type Jar } from "./helpers/visitor";

async function play(id: string, ip: string, jar?: Jar): Promise<boolean> {
  const res = await call("POST", `/api/plays/${id}`, { ip, jar });
  expect(res.status).toBe(200);
  return (await res.json<{ counted: boolean }>()).counted;
}

/** Beacons in waves of `wave` at once: many concurrent requests, without opening thousands at a time. */
async function spike(beacons: ReadonlyArray<{ id: string; ip: string; jar?: Jar }>, wave = 100): Promise<boolean[]> {
  const answers: boolean[] = [];
  for (let i = 0; i < beacons.length; i += wave) {
    answers.push(...(await Promise.all(beacons.slice(i, i + wave).map((b) => play(b.id, b.ip, b.jar)))));
  }
  return answers;
}

const dayPlays = (id: string, day: string) =>
  env.DB.prepare("SELECT plays FROM title_plays WHERE title_id = ? AND day = ?").bind(id, day).first<number>("plays");
const flushesSince = (at: number) => env.DB.prepare("SELECT COUNT(*) AS n FROM play_flushes WHERE at >= ?").bind(at).first<number>("n");

// Days far ahead of the real clock: the shards' alarms (FLUSH_INTERVAL_MS after a play, in fake
// time) stay in the future, so plays reach D1 only when a test flushes them.
afterEach(() => {
  vi.useRealTimers();
});

describe("plays aggregated before D1", () => {
  it("a spike on one title: answered from the shards, no D1 write per play, then a bounded number of flushes with the exact total", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2099-09-01T20:00:00Z"));
    const start = Date.now();
    const networks = Array.from({ length: 400 }, () => uniqueIp());
    // Every network twice: the second beacon is a repeat.
    const answers = await spike([...networks, ...networks].map((ip) => ({ id: "video_040", ip })));
    expect(answers.filter(Boolean)).toHaveLength(networks.length);
    expect(answers.slice(networks.length).some(Boolean)).toBe(false);
    // Nothing of it written to D1 yet: the plays wait in the shards' storage.
    expect(await dayPlays("video_040", "2099-09-01")).toBeNull();
    expect(await waitingPlays()).toBe(networks.length);

    await flushPlays();
    expect(await dayPlays("video_040", "2099-09-01")).toBe(networks.length);
    // One D1 batch per shard that held plays of the title, not one per play.
    const flushes = (await flushesSince(start)) ?? 0;
    expect(flushes).toBeGreaterThan(0);
    expect(flushes).toBeLessThanOrEqual(PLAY_SHARDS);
    expect(await waitingPlays()).toBe(0);
  });

  it("objects restarting between beacons and in the middle of a flush lose no play and count none twice", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2099-09-02T20:00:00Z"));
    const first = Array.from({ length: 150 }, () => ({ id: "video_041", ip: uniqueIp() }));
    const second = Array.from({ length: 150 }, () => ({ id: "video_041", ip: uniqueIp() }));
    // Signed-in viewers: their network's limit lives in another shard (an RPC between objects).
    const accounts = await Promise.all([signUp("plays-restart-a"), signUp("plays-restart-b")]);
    const signedIn = accounts.map(({ jar }) => ({ id: "video_041", ip: uniqueIp(), jar }));

    expect((await spike([...first, ...signedIn])).every(Boolean)).toBe(true);
    await abortAllDurableObjects();
    // The visits outlived the restart: every first viewer is a repeat; the new ones count.
    expect((await spike([...first, ...signedIn])).some(Boolean)).toBe(false);
    expect((await spike(second)).every(Boolean)).toBe(true);
    // A flush cut off by a restart: whether or not D1 had committed it, the next one sends it again and it is applied once.
    const cut = flushPlays().catch((error: unknown) => error);
    await abortAllDurableObjects();
    await cut;
    expect((await spike(second)).some(Boolean)).toBe(false);
    await flushPlays();
    expect(await dayPlays("video_041", "2099-09-02")).toBe(first.length + second.length + signedIn.length);
    expect(await waitingPlays()).toBe(0);
  });

  it("without anyone flushing, the shards' alarms bring every counted play to D1 within about FLUSH_INTERVAL_MS", async () => {
    // The real clock: the alarms fire on their own.
    const day = new Date().toISOString().slice(0, 10);
    const before = (await dayPlays("video_043", day)) ?? 0;
    const first = await spike(Array.from({ length: 60 }, () => ({ id: "video_043", ip: uniqueIp() })));
    expect(first.every(Boolean)).toBe(true);
    // More plays while the first flushes run (some shards' alarms are in their handlers).
    await expect.poll(() => dayPlays("video_043", day), { timeout: FLUSH_INTERVAL_MS * 3, interval: 500 }).toBeGreaterThan(before);
    const second = await spike(
      Array.from({ length: 60 }, () => ({ id: "video_043", ip: uniqueIp() })),
      5,
    );
    expect(second.every(Boolean)).toBe(true);
    await expect.poll(() => dayPlays("video_043", day), { timeout: FLUSH_INTERVAL_MS * 4, interval: 500 }).toBe(before + 120);
    await expect.poll(() => waitingPlays(), { timeout: FLUSH_INTERVAL_MS, interval: 500 }).toBe(0);
  }, 90_000);

  it("a flush sent again after D1 committed it adds nothing", async () => {
    const before = (await dayPlays("video_042", "2099-09-03")) ?? 0;
    const rows = [{ title: "video_042", day: "2099-09-03", plays: 7 }];
    const id = `test:${crypto.randomUUID()}`;
    expect(await applyFlush(env.DB, id, rows, Date.now())).toBe(true);
    expect(await applyFlush(env.DB, id, rows, Date.now())).toBe(false);
    expect(await dayPlays("video_042", "2099-09-03")).toBe(before + 7);
  });
});
