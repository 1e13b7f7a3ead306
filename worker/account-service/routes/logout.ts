/** POST /logout?scope=global|local|others. */
import type { Hono } from "hono";
import { authenticate } from "../authenticate";
import { BASE_PATH, noContent, type Service } from "../context";
import { validationFailed } from "../errors";
import { logout, type LogoutScope } from "../tokens";

const SCOPES: readonly string[] = ["global", "local", "others"] satisfies LogoutScope[];

export function logoutRoute(app: Hono, svc: Service): void {
  app.post(`${BASE_PATH}/logout`, async (c) => {
    const { user, session } = await authenticate(svc, c, svc.clock());
    const scope = c.req.query("scope") || "global";
    if (!SCOPES.includes(scope)) throw validationFailed(`Unsupported logout scope ${JSON.stringify(scope)}`);
    await logout(svc.db, scope as LogoutScope, user.id, session.id);
    return noContent();
  });
}
