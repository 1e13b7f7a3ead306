/** Bearer access token → its user and live session (401 no_authorization / 403 otherwise). */
import type { Context } from "hono";
import type { Service } from "./context";
import { AuthServiceError, badJwt, noAuthorization, sessionNotFound, userBanned } from "./errors";
import { JwtError, verifyJwt } from "./jwt";
import { selectSessionStatement, sessionEnded } from "./tokens";
import type { SessionRow } from "./tokens";
import { AUDIENCE, isBanned, selectUserByIdStatement } from "./users";
import type { UserRow } from "./users";

export interface Authenticated {
  user: UserRow;
  session: SessionRow;
}

export async function authenticate(svc: Service, c: Context, nowMs: number): Promise<Authenticated> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("Authorization") ?? "");
  if (!match) throw noAuthorization();
  let claims: Record<string, unknown>;
  try {
    claims = await verifyJwt(match[1], await svc.signingKey(), { issuer: svc.issuer, audience: AUDIENCE, nowMs });
  } catch (err) {
    if (err instanceof JwtError) throw badJwt(err.message);
    throw err;
  }
  const { sub, session_id: sessionId } = claims;
  if (typeof sub !== "string" || sub === "") throw new AuthServiceError(403, "bad_jwt", "invalid claim: missing sub claim");
  if (typeof sessionId !== "string" || sessionId === "") throw sessionNotFound();
  const [sessionResult, userResult] = await svc.db.batch([selectSessionStatement(svc.db, sessionId), selectUserByIdStatement(svc.db, sub)]);
  const session = (sessionResult.results[0] as SessionRow | undefined) ?? null;
  const user = (userResult.results[0] as UserRow | undefined) ?? null;
  if (!session || !user || session.user_id !== user.id || sessionEnded(session, nowMs, svc.policy)) throw sessionNotFound();
  // A token issued before the account was disabled is refused too (disabling also deletes its sessions).
  if (isBanned(user, nowMs)) throw userBanned(403);
  return { user, session };
}
