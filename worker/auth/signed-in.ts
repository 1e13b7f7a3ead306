/**
 * The signed-in account an account API needs (追剧 and 稍后再看, 评分, 评论区): the account of the
 * request's session, or the caller's refusal — signed out (401), or the account service unable to
 * tell (503) — with the session's cookies applied to it either way.
 */
import type { AppContext } from "../app-env";
import { applySession, createRequestSession, currentUser, type RequestSession } from "./session";

export type NotSignedIn = "signed-out" | "unavailable";

export async function signedInAccount(c: AppContext, refuse: (why: NotSignedIn) => Response): Promise<{ session: RequestSession; userId: string } | Response> {
  const session = createRequestSession(c);
  const result = await currentUser(session);
  if (result.user) return { session, userId: result.user.id };
  return applySession(session, refuse(result.transient ? "unavailable" : "signed-out"));
}
