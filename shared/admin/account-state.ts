/**
 * Whether an account is disabled (停用) — Supabase's model: `banned_until` on the user object,
 * set through the admin API with `ban_duration` (GoTrue), or by the 管理后台 in the embedded
 * account service's `users` table. Pure: the worker applies it to every user object it reads
 * (worker/auth/session.ts), so a disabled account is signed out at its next request on either
 * service, and its 弹幕 socket loses the right to post (worker/danmaku/poster.ts).
 */

/** A user object as far as its state goes (GoTrue omits `banned_until` when unset). */
export interface BannableUser {
  banned_until?: string | null;
}

export function isDisabledUser(user: BannableUser, nowMs: number): boolean {
  const until = user.banned_until;
  if (typeof until !== "string" || until === "") return false;
  const at = Date.parse(until);
  // An unreadable time is treated as disabled: the service said the account is banned.
  return Number.isNaN(at) || at > nowMs;
}
