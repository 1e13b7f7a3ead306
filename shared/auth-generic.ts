/**
 * The account messages every page may need (client/account-client.ts is in every page's entry),
 * apart from shared/auth-messages.ts, whose table of every code only the account pages load.
 */

/** What the auth form shows for an error code of the account service (spec §8: else 操作失败，请重试). */
export const GENERIC_AUTH_ERROR = "操作失败，请重试";

/** A 429 (the account service's or the edge's). */
export const RATE_LIMITED = "操作过于频繁，请稍后再试";
