import { Hono } from "hono";
import type { AppEnv } from "./app-env";
import { renderPage } from "./ssr";
import { serveMedia } from "./media/serve";

const app = new Hono<AppEnv>();

app.on(["GET", "HEAD"], "/:file{[0-9]+\\.(?:mp4|webp)}", serveMedia);

// SSR catch-all: every path that is not an API, a media file or a static asset.
app.on(["GET", "HEAD"], "*", (c) => renderPage(c));

app.all("*", (c) => c.text("Method Not Allowed", 405, { Allow: "GET, HEAD" }));

export default app;
