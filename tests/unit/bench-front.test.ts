import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { parsePriority, PriorityScheduler } from "../../scripts/edge-priority.mjs";
import { Bottleneck, createLink } from "../../scripts/throttle.mjs";

describe("the bench front's link (scripts/throttle.mjs)", () => {
  it("sends bytes one after another at the link's rate, then adds the one-way delay", () => {
    const link = new Bottleneck({ bps: 800_000, delayMs: 150 }); // 100 bytes per ms
    expect(link.send(10_000, 0)).toEqual({ departAt: 100, arriveAt: 250 });
    // Offered while the first is still on the wire (another connection): it waits its turn.
    expect(link.send(10_000, 50)).toEqual({ departAt: 200, arriveAt: 350 });
    // Offered after the link went idle: starts at once.
    expect(link.send(1_000, 1_000)).toEqual({ departAt: 1_010, arriveAt: 1_160 });
  });

  it("splits the round trip between the two directions", () => {
    const link = createLink({ downBps: 1_600_000, upBps: 750_000, rttMs: 150 });
    expect(link.down.delayMs + link.up.delayMs).toBe(150);
    expect(link.down.bps).toBe(1_600_000);
    expect(link.up.bps).toBe(750_000);
  });
});

describe("the bench front's response schedule (scripts/edge-priority.mjs)", () => {
  it("reads RFC 9218 priorities as Chromium sends them", () => {
    expect(parsePriority("u=0")).toEqual({ urgency: 0, incremental: false });
    expect(parsePriority("u=1, i")).toEqual({ urgency: 1, incremental: true });
    expect(parsePriority("i")).toEqual({ urgency: 3, incremental: true });
    expect(parsePriority(undefined)).toEqual({ urgency: 3, incremental: false });
  });

  it("sends the most urgent response first, then the others in request order", async () => {
    const order: string[] = [];
    /** A response whose writes complete when the test says so (bytes leaving the link). */
    const pending: Array<() => void> = [];
    const sink = (name: string) => ({
      write: (chunk: Buffer, done: () => void) => {
        order.push(`${name}:${chunk.length}`);
        pending.push(done);
      },
      end: () => order.push(`${name}:end`),
      once: () => {},
    });
    const scheduler = new PriorityScheduler();
    const body = (bytes: number) => {
      const s = new PassThrough();
      s.end(Buffer.alloc(bytes));
      return s;
    };
    scheduler.add(sink("script-a"), { urgency: 1, incremental: false }, body(20_000));
    scheduler.add(sink("media"), { urgency: 3, incremental: true }, body(8_192));
    scheduler.add(sink("script-b"), { urgency: 1, incremental: false }, body(4_096));
    await new Promise((resolve) => setImmediate(resolve));
    scheduler.add(sink("css"), { urgency: 0, incremental: false }, body(4_096));
    await new Promise((resolve) => setImmediate(resolve));
    // Let every write complete, one by one, until nothing is left.
    while (pending.length > 0) {
      pending.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const firsts = (name: string) => order.findIndex((o) => o.startsWith(name));
    expect(firsts("css")).toBeLessThan(order.lastIndexOf("script-a:4096"));
    expect(order.lastIndexOf("script-a:4096")).toBeLessThan(firsts("script-b"));
    expect(firsts("script-b")).toBeLessThan(firsts("media"));
    expect(order.filter((o) => o.endsWith(":end")).sort()).toEqual(["css:end", "media:end", "script-a:end", "script-b:end"]);
  });
});
