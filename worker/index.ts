import { shareImage } from "./share/share-image";
import { Hono } from "hono";
import { except } from "hono/combine";
import { accountServiceFetch, accountServiceOptions } from "./account-service/index";
import type { AppEnv } from "./app-env";
import { adminApi } from "./admin/api";
import { adminPages } from "./admin/pages";
import { authApi } from "./auth/api";
import { configOf, configResultOf } from "./config";
import { danmakuApi } from "./danmaku/api";
import { shortLink, watchApi } from "./watch/api";
import { requestLimits } from "./limits";
import { requestBindings } from "./request-bindings";
import { isLocalHost } from "./local-host";
import { onAppError } from "./fault-answers";
import { devMailbox } from "./mail/dev-mailbox";
import { serveMediaCached } from "./media/cached";
import { catalogueApi } from "./catalogue/api";
import { searchApi } from "./search/api";
import { handlePage } from "./pages";
import { securityHeaders, streamSecurityHeaders } from "./security";
import { provideApi } from "./feeds/provide";
import { playsApi } from "./plays/api";
import { reportsApi } from "./reports/api";
import { commentsApi } from "./comments/api";
import { linesApi } from "./lines/api";
import { tvboxHandler } from "./feeds/tvbox";
import { streamCors } from "./stream/cors";
import { robotsHandler, rssHandler, sitemapHandler, sitemapPartHandler } from "./seo";
import { mirrorStreamRoutes, streamRoutes } from "./stream/index";
import { lineOriginsForPages } from "./line-origins";
import { uploadApi } from "./upload/api";
import { listsApi } from "./lists/api";
import { ratingsApi } from "./ratings/api";

const app = new Hono<AppEnv>();
/** The progressive MP4s, `/N.mp4` (worker/media/serve.ts checks the name strictly). */
const PROGRESSIVE_MP4 = "/:file{[0-9]+\\.mp4}";
// A storage fault anywhere is a 503 with Retry-After, a bug a 500: in the route's format, never cached (worker/fault-answers.ts).
app.onError(onAppError);

app.use("*", requestLimits);
// D1 through a read-replication session with the visitor's bookmark; D1, R2 and the Durable Objects under deadlines (worker/request-bindings.ts).
app.use("*", requestBindings);
// The 线路's hosts for the pages' CSP (media-src, connect-src), read before the headers are made.
app.use("*", lineOriginsForPages);
app.use("*", except(["/stream/*", "/mirror/stream/*", PROGRESSIVE_MP4], securityHeaders));
// Stream files are played from other origins too: CORP cross-origin there (worker/security.ts).
app.use("/stream/*", streamSecurityHeaders);
app.use("/mirror/stream/*", streamSecurityHeaders);
// So is the progressive MP4: a 投屏 receiver (a Chromecast's page, an Apple TV) or an app fetches it from its own origin (decision 0105).
app.use(PROGRESSIVE_MP4, streamSecurityHeaders, streamCors);

// Configuration (worker/config.ts): a bad variable stops the site with a clear message, never half-works.
app.use("*", async (c, next) => {
  const result = configResultOf(c.env);
  if (result.ok) return next();
  console.error(`config: ${result.message}`);
  return c.text("503 站点配置有误，暂时无法访问。管理员请查看日志中的 config 一行。", 503, { "Cache-Control": "no-store", "Retry-After": "60" });
});

// Account API for the browser (cookie sessions; the browser never sees a token).
app.route("/api/auth", authApi);
// 管理后台: its JSON API and its own pages, outside the viewer pages and their cache (worker/admin/, docs/admin.md).
app.route("/api/admin", adminApi);
app.route("/admin", adminPages);
// Search suggestions as you type, for the header box (JSON, edge-cached); results come with the page data (/api/page/search).
app.route("/api/search", searchApi);
// The catalogue pages' loader data and cards by id, for client navigations (JSON, edge-cached).
app.route("/api", catalogueApi);
// 弹幕: comment windows, DPlayer v3 and the live room over WebSocket (worker/danmaku/).
app.route("/api/danmaku", danmakuApi);
// 一起看: watch rooms over WebSocket and their short links /w/{code} (worker/watch/).
app.route("/api/watch", watchApi);
app.get("/w/:code", shortLink);
// Media uploads of `npm run deploy` and `catalogue add --remote`: off unless MEDIA_UPLOAD_TOKEN is set (worker/upload/).
app.route("/api/media", uploadApi);
// 追剧 and 稍后再看 of the signed-in account (D1; worker/lists/).
app.route("/api/lists", listsApi);
// 评分: the signed-in viewer's score of a title and the viewers' totals (D1; worker/ratings/).
app.route("/api/ratings", ratingsApi);
// Play counting (the player's beacon) and the 排行榜 as JSON (worker/plays/).
app.route("/api", playsApi);
// 举报 and 报错 from the viewer pages, the player's error beacon (worker/reports/, docs/admin.md).
app.route("/api/reports", reportsApi);
// 评论区: comments, replies, likes, nicknames and 回复我的 of signed-in accounts, in D1 (worker/comments/).
app.route("/api/comments", commentsApi);
// 线路 the player had to leave, counted for 概览 (worker/lines/).
app.route("/api", linesApi);
app.all("/api/*", (c) => c.json({ error: { code: "not_found", message: "接口不存在" } }, 404));

// The embedded account service over HTTP: local development only, off unless EXPOSE_ACCOUNT_API is true.
app.all("/auth/v1/*", async (c, next) => {
  const config = configOf(c.env);
  if (!config.EXPOSE_ACCOUNT_API || config.SUPABASE_URL) return next();
  return accountServiceFetch(accountServiceOptions(c.env, config, c.req.url))(c.req.raw);
});

// The development mailbox: only when served from localhost; anywhere else /dev/* is an ordinary page path (404).
app.all("/dev/*", (c, next) => (isLocalHost(new URL(c.req.url).hostname) ? devMailbox.fetch(c.req.raw, c.env, c.executionCtx) : next()));

app.get("/sitemap.xml", sitemapHandler);
app.get("/:file{sitemap-[1-9][0-9]{0,5}\\.xml}", sitemapPartHandler);
app.get("/robots.txt", robotsHandler);
app.get("/rss.xml", rssHandler);
// The MacCMS v10 provide API for TV-box apps and aggregators (docs/provide-api.md).
app.route("/api.php/provide", provideApi());
// The same API as one site of a TV box's configuration: a TV box adds the whole site by this URL (docs/provide-api.md "/tvbox.json").
app.get("/tvbox.json", tvboxHandler);

// Videos and covers from R2 through the edge cache, with HTTP Range.
app.on(["GET", "HEAD"], "/:file{[0-9]+\\.(?:mp4|webp)}", serveMediaCached);

// Adaptive streaming: playlists, segments, subtitles, storyboard (docs/streaming.md), with CORS.
// The link-preview frame of a ?t= share link (docs/decisions/0098-share-frame.md).
app.on(["GET", "HEAD"], "/share-image/:id", shareImage);
app.route("/stream", streamRoutes);
// The same tree under another path: the built-in catalogue's second 线路 (a mirror served by this site).
app.route("/mirror/stream", mirrorStreamRoutes);

// SSR catch-all: every path that is not an API, a media file or a static asset.
app.on(["GET", "HEAD"], "*", handlePage);

app.all("*", (c) => c.text("不支持的请求方法", 405, { Allow: "GET, HEAD" }));

export default app;

// Durable Object classes bound in wrangler.toml.
export { DanmakuRoom } from "./danmaku/room";
export { DanmakuShard } from "./danmaku/shard";
export { DanmakuRateLimit } from "./danmaku/rate-limit";
export { PlayShard } from "./plays/shard";
export { WatchRoom } from "./watch/room";
