/**
 * The profile's device list: GET /api/auth/sessions (browser and system, country, last seen) and
 * POST /api/auth/sessions/:id/sign-out (退出此设备). Backed by the embedded account service's
 * /sessions extension; a real Supabase project has no such API (answered 501).
 */
import type { Hono } from "hono";
import type { DeviceSession } from "../../shared/device-session";
import type { AppContext, AppEnv } from "../app-env";
import type { SessionListItem } from "../account-service/routes/sessions";
import { countryName, deviceLabel } from "./device";
import { jsonError } from "./responses";
import { applySession, createRequestSession, currentUser, type RequestSession } from "./session";

/** A call to the service's /sessions API with the visitor's (possibly just refreshed) access token. */
async function sessionsCall(session: RequestSession, method: "GET" | "DELETE", path = ""): Promise<Response | null> {
  const { data } = await session.client.auth.getSession();
  if (!data.session) return null;
  return session.guardedFetch(`${session.endpoint.url}/auth/v1/sessions${path}`, {
    method,
    headers: { apikey: session.endpoint.key, Authorization: `Bearer ${data.session.access_token}` },
  });
}

async function signedIn(c: AppContext): Promise<{ session: RequestSession; refusal: Response | null }> {
  const session = createRequestSession(c);
  const result = await currentUser(session);
  if (result.user) return { session, refusal: null };
  return { session, refusal: applySession(session, result.transient ? jsonError(c, 503, "service_unavailable") : jsonError(c, 401, "not_signed_in")) };
}

function unsupported(c: AppContext, session: RequestSession, response: Response | null): Response {
  if (response?.status === 404 || response?.status === 405) return applySession(session, jsonError(c, 501, "not_supported", "当前账号服务不支持设备管理"));
  return applySession(session, jsonError(c, 503, "service_unavailable"));
}

async function listDevices(c: AppContext): Promise<Response> {
  const { session, refusal } = await signedIn(c);
  if (refusal) return refusal;
  const response = await sessionsCall(session, "GET").catch(() => null);
  if (!response || response.status !== 200) return unsupported(c, session, response);
  const items = await response.json<SessionListItem[]>();
  const devices: DeviceSession[] = items.map((s) => ({
    id: s.id,
    device: deviceLabel(s.user_agent),
    country: countryName(s.country),
    createdAt: s.created_at,
    lastSeenAt: s.last_seen_at,
    current: s.current,
  }));
  devices.sort((a, b) => Number(b.current) - Number(a.current)); // this device first, then by last seen
  return applySession(session, c.json({ sessions: devices }, 200, { "Cache-Control": "private, no-store" }));
}

async function signOutDevice(c: AppContext): Promise<Response> {
  const { session, refusal } = await signedIn(c);
  if (refusal) return refusal;
  const id = c.req.param("id") ?? "";
  if (!/^[0-9a-f-]{36}$/.test(id)) return applySession(session, jsonError(c, 404, "session_not_found"));
  const response = await sessionsCall(session, "DELETE", `/${id}`).catch(() => null);
  const wantsPage = (c.req.header("Accept") ?? "").includes("text/html") && !(c.req.header("Content-Type") ?? "").includes("json");
  if (response?.status === 204) return wantsPage ? applySession(session, c.redirect("/profile", 303)) : applySession(session, c.json({ ok: true }));
  if (
    response?.status === 404 &&
    (
      (await response
        .clone()
        .json()
        .catch(() => null)) as { code?: string } | null
    )?.code === "session_not_found"
  ) {
    return applySession(session, jsonError(c, 404, "session_not_found"));
  }
  return unsupported(c, session, response);
}

export function deviceRoutes(api: Hono<AppEnv>): void {
  api.get("/sessions", listDevices);
  api.post("/sessions/:id/sign-out", signOutDevice);
}
