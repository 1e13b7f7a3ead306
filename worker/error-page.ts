import { html } from "hono/html";

/** A self-contained Chinese error page for when React could not render at all (the site name escaped). */
export function errorPageHtml(siteName: string) {
  return html`<!doctype html>
    <html lang="zh-CN">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>服务器错误 - ${siteName}</title>
        <style>
          body {
            font-family: system-ui, "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif;
            background: #0f1115;
            color: #e8eaf0;
            display: grid;
            place-items: center;
            min-height: 100vh;
            margin: 0;
            text-align: center;
          }
          a {
            color: #ff7a59;
          }
        </style>
      </head>
      <body>
        <main>
          <h1>页面暂时无法显示</h1>
          <p>服务器出现了问题，请稍后刷新重试。</p>
          <p><a href="/">返回首页</a></p>
        </main>
      </body>
    </html>`;
}
