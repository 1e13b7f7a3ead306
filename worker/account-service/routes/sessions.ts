/**
 * GET /sessions and DELETE /sessions/:id — an extension of this service (Supabase Auth has no
 * session list): the signed-in user's live sessions with where they were started, and ending
 * one of them from another device.
 */
import type { Hono } from "hono";
import { authenticate } from "../authenticate";
import { BASE_PATH, json, noContent, type Service } from "../context";
import { AuthServiceError } from "../errors";
import { endSession, listSessions } from "../tokens";

export interface SessionListItem {
  id: string;
  created_at: string;
  last_seen_at: string;
  user_agent: string | null;
  country: string | null;
  current: boolean;
}

export function sessionRoutes(app: Hono, svc: Service): void {
  app.get(`${BASE_PATH}/sessions`, async (c) => {
    const nowMs = svc.clock();
    const { user, session } = await authenticate(svc, c, nowMs);
    const sessions = await listSessions(svc.db, user.id, nowMs, svc.policy);
    return json(
      sessions.map((s): SessionListItem => ({
        id: s.id,
        created_at: s.created_at,
        last_seen_at: s.updated_at,
        user_agent: s.user_agent,
        country: s.country,
        current: s.id === session.id,
      })),
    );
  });

  app.delete(`${BASE_PATH}/sessions/:id`, async (c) => {
    const { user } = await authenticate(svc, c, svc.clock());
    if (!(await endSession(svc.db, user.id, c.req.param("id")))) throw new AuthServiceError(404, "session_not_found", "Session not found");
    return noContent();
  });
}
