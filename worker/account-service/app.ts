/**
 * The embedded account service: a Hono app speaking a subset of the Supabase Auth (GoTrue)
 * HTTP API, mounted at /auth/v1/*; tests/worker/account-service.*.test.ts pin every endpoint
 * and answer of that subset. Each group of endpoints lives in routes/.
 */
import { Hono } from "hono";
import { limitBody, MAX_BODY_BYTES } from "../request-body";
import { BASE_PATH, serviceOf, type AccountServiceOptions } from "./context";
import { AuthServiceError, errorResponse, methodNotAllowed, requestTooLarge, unexpectedFailure } from "./errors";
import { logoutRoute } from "./routes/logout";
import { recoveryRoutes } from "./routes/recovery";
import { sessionRoutes } from "./routes/sessions";
import { signupRoute } from "./routes/signup";
import { tokenRoute } from "./routes/token";
import { userRoutes } from "./routes/user";

export { BASE_PATH } from "./context";
export type { AccountServiceOptions } from "./context";

const ENDPOINTS = ["signup", "token", "logout", "user", "recover", "resend", "verify", "sessions"];

export function createAccountService(opts: AccountServiceOptions): Hono {
  const svc = serviceOf(opts);
  const app = new Hono();

  app.onError((err) => {
    if (err instanceof AuthServiceError) return errorResponse(err);
    console.error("account-service: unexpected failure", err);
    return errorResponse(unexpectedFailure());
  });
  app.notFound(() => errorResponse(new AuthServiceError(404, "not_found", "Not found")));
  app.use(
    `${BASE_PATH}/*`,
    limitBody(() => errorResponse(requestTooLarge(MAX_BODY_BYTES))),
  );

  signupRoute(app, svc);
  tokenRoute(app, svc);
  logoutRoute(app, svc);
  userRoutes(app, svc);
  recoveryRoutes(app, svc);
  sessionRoutes(app, svc);
  for (const path of ENDPOINTS) {
    app.all(`${BASE_PATH}/${path}`, () => {
      throw methodNotAllowed();
    });
  }
  return app;
}
