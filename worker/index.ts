import { Hono } from "hono";
import { accountServiceFetch, accountServiceOptionsFromEnv } from "./account-service/index";
import type { AppEnv } from "./app-env";
import { authApi } from "./auth/api";
import { requestLimits } from "./limits";
import { serveMedia } from "./media/serve";
import { searchApi } from "./search/api";
import { handlePage } from "./pages";
import { securityHeaders } from "./security";
import { robotsHandler, sitemapHandler } from "./seo";

const app = new Hono<AppEnv>();

app.use("*", requestLimits);
app.use("*", securityHeaders);

// Account API for the browser (cookie sessions; the browser never sees a token).
app.route("/api/auth", authApi);
// Search for the browser: results after hydration and suggestions as you type (JSON, edge-cached).
app.route("/api/search", searchApi);
app.all("/api/*", (c) => c.json({ error: { code: "not_found", message: "接口不存在" } }, 404));

// The embedded account service over HTTP: local development only, off unless EXPOSE_ACCOUNT_API is set.
app.all("/auth/v1/*", async (c, next) => {
  if (!c.env.EXPOSE_ACCOUNT_API || c.env.SUPABASE_URL) return next();
  return accountServiceFetch(accountServiceOptionsFromEnv(c.env, c.req.url))(c.req.raw);
});

app.get("/sitemap.xml", sitemapHandler);
app.get("/robots.txt", robotsHandler);

// Videos and covers from R2, with HTTP Range.
app.on(["GET", "HEAD"], "/:file{[0-9]+\\.(?:mp4|webp)}", serveMedia);

// SSR catch-all: every path that is not an API, a media file or a static asset.
app.on(["GET", "HEAD"], "*", handlePage);

app.all("*", (c) => c.text("不支持的请求方法", 405, { Allow: "GET, HEAD" }));

export default app;
