/**
 * Who is asking, for every /admin and /api/admin/* request — decided by the server each time
 * (docs/decisions/0070-admin-roles.md): the session cookie's user as the account service returns
 * it now (GET /auth/v1/user: a role removed a second ago is gone), its `app_metadata.role`, and
 * the second step of this very session (the access token's `session_id`, checked in D1).
 */
import { decode } from "hono/jwt";
import { roleOf, type AdminRole } from "../../shared/admin/roles";
import type { AppContext } from "../app-env";
import { accountStep, createRequestSession, currentUser, storedSession, type RequestSession } from "../auth/session";
import { secondStepOf, type SecondStep } from "./two-step";

export interface AdminVisitor {
  userId: string;
  email: string;
  role: AdminRole;
  sessionId: string;
  step: SecondStep;
}

export type AdminAccess = { kind: "signed_out" } | { kind: "unavailable" } | { kind: "no_role" } | { kind: "role"; visitor: AdminVisitor };

function sessionIdOf(accessToken: string): string | null {
  try {
    const claim = (decode(accessToken).payload as Record<string, unknown>).session_id;
    return typeof claim === "string" && claim !== "" ? claim : null;
  } catch {
    return null;
  }
}

/**
 * The session id of the access token the service just accepted: the refreshed session when
 * getUser refreshed it (supabase-js's storage holds it), else the cookie's.
 */
async function verifiedSessionId(session: RequestSession): Promise<string | null> {
  const outcome = await accountStep(session, session.client.auth.getSession());
  const token = outcome.done ? outcome.value.data.session?.access_token : undefined;
  const fallback = token ? null : await storedSession(session);
  return sessionIdOf(token ?? fallback?.access_token ?? "");
}

export async function adminAccess(c: AppContext, session: RequestSession = createRequestSession(c)): Promise<AdminAccess> {
  if (!session.hasCookie) return { kind: "signed_out" };
  const { user, transient } = await currentUser(session);
  if (!user) return transient ? { kind: "unavailable" } : { kind: "signed_out" };
  const role = roleOf(user.app_metadata);
  if (!role) return { kind: "no_role" };
  const sessionId = await verifiedSessionId(session);
  if (!sessionId) return { kind: "signed_out" };
  const step = await secondStepOf(c.env.DB, user.id, sessionId, Date.now());
  return { kind: "role", visitor: { userId: user.id, email: user.email ?? "", role, sessionId, step } };
}
