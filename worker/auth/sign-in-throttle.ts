/**
 * Per-account sign-in throttling in front of a real Supabase project (the embedded service does
 * it itself, worker/account-service/throttle.ts — same rule, same table, its own keys): 5 wrong
 * passwords for an address within 15 minutes lock it for 1, 2, 4 … minutes, for known and
 * unknown addresses alike; a successful sign-in or a password reset clears it.
 */
import { clearFailuresStatement, lockRemaining, readFailures, recordFailure } from "../account-service/throttle";
import type { AppContext } from "../app-env";
import { configOf } from "../config";

const key = (email: string) => `api:${email.trim().toLowerCase().slice(0, 255)}`;

/** Whether the worker throttles itself: only in front of a real Supabase project. */
export function throttlesItself(c: AppContext): boolean {
  return Boolean(configOf(c.env).SUPABASE_URL);
}

/** Seconds the address must wait before the next attempt, or 0. A failing store never blocks sign-in. */
export async function signInLockSeconds(c: AppContext, email: string): Promise<number> {
  if (!throttlesItself(c)) return 0;
  try {
    return Math.ceil(lockRemaining(await readFailures(c.env.DB, key(email)), Date.now()) / 1000);
  } catch (error) {
    console.error("sign-in throttle unavailable", error);
    return 0;
  }
}

/** Records the outcome of a password attempt: a wrong password counts, a success clears. */
export async function noteSignIn(c: AppContext, email: string, outcome: "wrong_password" | "success"): Promise<void> {
  if (!throttlesItself(c)) return;
  try {
    const db = c.env.DB;
    if (outcome === "success") await clearFailuresStatement(db, key(email)).run();
    else await recordFailure(db, key(email), await readFailures(db, key(email)), Date.now());
  } catch (error) {
    console.error("sign-in throttle unavailable", error);
  }
}
