// The per-account throttling rule (worker/account-service/throttle.ts), as pure state changes.
import { describe, expect, it } from "vitest";
import { afterFailure, FAILURE_WINDOW_MS, lockRemaining, type FailureRecord } from "../../worker/account-service/throttle";

function fail(times: number, start: FailureRecord | null, at: number): FailureRecord | null {
  let record = start;
  for (let i = 0; i < times; i++) record = afterFailure(record, at);
  return record;
}

describe("sign-in throttle", () => {
  it("the fifth wrong password within 15 minutes locks for one minute", () => {
    const four = fail(4, null, 0);
    expect(lockRemaining(four, 0)).toBe(0);
    const five = afterFailure(four, 1000);
    expect(lockRemaining(five, 1000)).toBe(60_000);
    expect(lockRemaining(five, 61_000)).toBe(0);
  });

  it("each wrong password after a lock doubles the next: 1, 2, 4, 8 minutes, capped", () => {
    let record = fail(5, null, 0)!;
    const locks = [record.locked_until - 0];
    let now = 0;
    for (let i = 0; i < 14; i++) {
      now = record.locked_until + 1;
      record = afterFailure(record, now);
      locks.push(record.locked_until - now);
    }
    expect(locks.slice(0, 4)).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(Math.max(...locks)).toBe(60_000 * 2 ** 10);
  });

  it("mistakes more than 15 minutes apart (after the last lock) start over", () => {
    const locked = fail(5, null, 0)!;
    const later = afterFailure(locked, locked.locked_until + FAILURE_WINDOW_MS + 1);
    expect(later).toMatchObject({ failures: 1, locks: 0, locked_until: 0 });
    const spread = fail(4, null, 0);
    expect(afterFailure(spread, FAILURE_WINDOW_MS + 1)).toMatchObject({ failures: 1 });
  });
});
