/**
 * Whether a user may post 弹幕 now: the one check every post passes before the rate limit, in
 * the room (room.ts), whichever way it came. A post over HTTP comes with a session the worker
 * read in that very request (getUser, refreshing it); a post over a room's socket comes with the
 * access token the socket opened with, which is asked of the account service again (GET
 * /auth/v1/user: the embedded service answers from D1, so a signed-out, signed-out-everywhere,
 * password-changed or expired session is refused at once — docs/decisions/0041-danmaku-session.md).
 * A disabled account (管理后台 用户管理) is refused by both ways: its HTTP post carries no user
 * (the worker's session read signs it out) and its socket's token is answered as ended
 * (userOfAccessToken: the embedded service refuses it, and a user object with `banned_until`
 * ahead counts as ended on either service). A muted user (弹幕管理: the room reads the mute from
 * D1 with the blocked words, policy.ts) is refused here too, before any call, with until when.
 */
import { muteMessage } from "../../shared/danmaku/moderation";
import { accountEndpoint } from "../auth/service-fetch";
import { accountServiceTimeoutMs, userOfAccessToken } from "../auth/session";

/** Who posts, and how their session is known. */
export type Poster =
  /** The worker read the session in the request that carries the post (DPlayer's POST). */
  | { user: string; proof: "request" }
  /** A socket's: the access token of the upgrade, when it expires (ms) and the site it was issued for. */
  | { user: string; proof: "token"; accessToken: string; expiresAt: number; site: string };

/**
 * `sessionEnded`: the socket may no longer post; `unavailable`: the account service could not tell
 * (try again); `muted`: 弹幕管理 muted the user, `message` says until when.
 */
export type Standing = { ok: true } | { ok: false; code: "sessionEnded" | "unavailable" } | { ok: false; code: "muted"; message: string };

/** `mutedUntil`: the poster's mute as the room read it (policy.ts; undefined: not muted, null: for good). */
export async function mayPost(env: Env, poster: Poster, nowMs = Date.now(), mutedUntil?: number | null): Promise<Standing> {
  if (mutedUntil !== undefined) return { ok: false, code: "muted", message: muteMessage(mutedUntil) };
  if (poster.proof === "token") {
    if (poster.expiresAt <= nowMs) return { ok: false, code: "sessionEnded" };
    const asked = await userOfAccessToken(accountEndpoint(env, poster.site), poster.accessToken, accountServiceTimeoutMs(env));
    if (asked.kind === "unavailable") return { ok: false, code: "unavailable" };
    if (asked.kind === "ended" || asked.user.id !== poster.user) return { ok: false, code: "sessionEnded" };
  }
  return { ok: true };
}
