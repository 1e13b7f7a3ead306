/**
 * Per-account sign-in throttling in front of a real Supabase project (the embedded service does
 * it itself, worker/account-service/throttle.ts — same rule, same table, its own keys): 5 wrong
 * passwords for an address within 15 minutes lock it for 1, 2, 4 … minutes, for known and
 * unknown addresses alike, except from a device that signed in to it before, which has its own
 * record (worker/account-service/known-devices.ts); a successful sign-in clears the record it
 * counted against, a password reset the account's.
 */
import { throttleLane, type ThrottleLane } from "../account-service/known-devices";
import { clearFailuresStatement, lockRemaining, readFailures, recordFailure } from "../account-service/throttle";
import type { AppContext } from "../app-env";
import { configOf } from "../config";
import { knownDeviceToken } from "./known-device";

const PREFIX = "api:";
const normalised = (email: string) => email.trim().toLowerCase().slice(0, 255);
const key = (email: string) => `${PREFIX}${normalised(email)}`;

/** The record a password attempt of this request counts against: the account's, or this known device's. */
async function laneOf(c: AppContext, email: string): Promise<ThrottleLane> {
  return throttleLane(c.env.DB, normalised(email), knownDeviceToken(c), Date.now(), PREFIX);
}

/** Whether the worker throttles itself: only in front of a real Supabase project. */
export function throttlesItself(c: AppContext): boolean {
  return Boolean(configOf(c.env).SUPABASE_URL);
}

/** Seconds this request must wait before the next attempt for the address, or 0. A failing store never blocks sign-in. */
export async function signInLockSeconds(c: AppContext, email: string): Promise<number> {
  if (!throttlesItself(c)) return 0;
  try {
    return Math.ceil(lockRemaining(await readFailures(c.env.DB, (await laneOf(c, email)).key), Date.now()) / 1000);
  } catch (error) {
    console.error("sign-in throttle unavailable", error);
    return 0;
  }
}

/**
 * Records the outcome of a password attempt of this request: a wrong password counts against
 * its record (the account's, or the known device's), a success clears that record.
 */
export async function noteSignInAttempt(c: AppContext, email: string, outcome: "wrong_password" | "success"): Promise<void> {
  if (!throttlesItself(c)) return;
  try {
    const db = c.env.DB;
    const { key: lane } = await laneOf(c, email);
    if (outcome === "success") await clearFailuresStatement(db, lane).run();
    else await recordFailure(db, lane, await readFailures(db, lane), Date.now());
  } catch (error) {
    console.error("sign-in throttle unavailable", error);
  }
}

/** Clears the account's own record (a password reset proves the mailbox: the account's lock is lifted). */
export async function noteSignIn(c: AppContext, email: string, outcome: "success"): Promise<void> {
  if (!throttlesItself(c) || outcome !== "success") return;
  try {
    await clearFailuresStatement(c.env.DB, key(email)).run();
  } catch (error) {
    console.error("sign-in throttle unavailable", error);
  }
}
