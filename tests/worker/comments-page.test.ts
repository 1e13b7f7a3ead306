// The 评论区 on the video page (shared/components/comments/, docs/decisions/0110-comments.md): the server
// renders the first page only — one page of a title with 1,000 comments — readable without
// JavaScript and as `Comment` items in the structured data; a removed comment with replies shows
// 该评论已被删除; the anonymous page at the edge is not served stale after a post (the title's
// comment version is in its key); the comment client is not in the page's first JavaScript.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import clientAssets from "virtual:client-assets";
import { describe, expect, it } from "vitest";
import { COMMENT_PAGE, REMOVED_TEXT } from "../../shared/comments/model";
import { listComments, recountStatements } from "../../worker/comments/store";
import app from "../../worker/index";
import { scriptsBeforeHydration } from "./helpers/page-scripts";
import { BASE, call, callRead, signUp, uniqueIp } from "./helpers/visitor";

/** Writes `count` comments on a title straight into D1 (the API's rate limit would take hours), newest last. */
async function seed(title: string, count: number, text = "种子评论"): Promise<void> {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
     INSERT INTO comments (title_id, user_id, text, created_at) SELECT ?1, 'seeded-' || (i % 7), ?3 || i, ?4 + i FROM n`,
  )
    .bind(title, count, text, Date.now() - 86_400_000)
    .run();
  await env.DB.batch(recountStatements(env.DB, title, null));
}

/** Top-level comments in the HTML (replies are `comment comment-reply`). */
const topLevel = (html: string) => html.match(/<li class="comment" id="comment-\d+"/g)?.length ?? 0;

function structuredComments(html: string): { commentCount: number; comment: Array<{ "@type": string; text: string }> } {
  const blocks = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]) as Record<string, unknown>);
  const found = blocks.find((b) => "comment" in b);
  expect(found, "a structured-data block with the comments").toBeDefined();
  return found as never;
}

/** D1 that notes how many rows each statement of a read returned (the binding wrapped; the project's code runs as it is). */
function counting(db: D1Database): { db: D1Database; rows: number[] } {
  const rows: number[] = [];
  const real = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, name) {
        if (name === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
        if (name === "all")
          return async () => {
            const result = await target.all();
            rows.push(result.results.length);
            return result;
          };
        if (name === "first")
          return async (column?: string) => {
            rows.push(1);
            return column === undefined ? target.first() : target.first(column);
          };
        const value: unknown = Reflect.get(target, name);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    real.set(proxy, statement);
    return proxy;
  };
  const proxy = new Proxy(db, {
    get(target, name) {
      if (name === "prepare") return (sql: string) => wrap(target.prepare(sql));
      if (name === "batch")
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements.map((s) => real.get(s) ?? s));
          for (const result of results) rows.push(result.results.length);
          return results;
        };
      const value: unknown = Reflect.get(target, name);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: proxy, rows };
}

describe("the 评论区 on the video page", () => {
  it("reads one page from D1 whatever the title holds: no statement returns more than a page and its look-ahead row", async () => {
    await seed("video_036", 1000);
    // Every seeded comment gets five replies: the preview is bounded per thread too.
    const reply = env.DB.prepare(
      "INSERT INTO comments (title_id, parent_id, reply_to_id, user_id, text, created_at) SELECT title_id, id, id, 'replier', '回复', created_at + 1 FROM comments WHERE title_id = 'video_036' AND parent_id IS NULL",
    );
    await env.DB.batch([reply, reply, reply, reply, reply]);
    const { db, rows } = counting(env.DB);
    for (const sort of ["hot", "new"] as const) {
      const page = await listComments(db, "video_036", sort, 1, null);
      expect(page.items).toHaveLength(COMMENT_PAGE);
    }
    expect(rows.length).toBeGreaterThan(0);
    expect(Math.max(...rows)).toBeLessThanOrEqual(COMMENT_PAGE * 3 + 1);
  });

  it("renders only the first page of a title with 1,000 comments, with the count and Comment items", async () => {
    await seed("video_033", 1000);
    const { res, text: html } = await callRead("GET", "/video/video_033", { ip: uniqueIp() });
    expect(res.status).toBe(200);
    expect(html).toContain('<span class="comments-count">1000</span>');
    expect(topLevel(html)).toBe(COMMENT_PAGE);
    expect(html).toContain("加载更多评论");
    const data = structuredComments(html);
    expect(data.commentCount).toBe(1000);
    expect(data.comment).toHaveLength(COMMENT_PAGE);
    expect(data.comment[0]["@type"]).toBe("Comment");
    // The page's data (hydration and GET /api/page) holds the same one page, not the title's 1,000.
    const page = await call("GET", "/api/page/video/video_033");
    const json = await page.json<{ comments: { items: unknown[]; total: number; more: boolean } }>();
    expect(json.comments.items).toHaveLength(COMMENT_PAGE);
    expect(json.comments).toMatchObject({ total: 1000, more: true });
  });

  it("shows 该评论已被删除 where a removed comment had replies, and never an e-mail", async () => {
    const a = await signUp("comments-page-a");
    const b = await signUp("comments-page-b");
    const headers = { Origin: BASE };
    const first = await call("POST", "/api/comments/title/video_034", { jar: a.jar, headers, json: { text: "会被删除的评论" } });
    const { comment } = await first.json<{ comment: { id: number } }>();
    expect((await call("POST", "/api/comments/title/video_034", { jar: b.jar, headers, json: { text: "留下的回复", replyTo: comment.id } })).status).toBe(201);
    expect((await call("DELETE", `/api/comments/item/${comment.id}`, { jar: a.jar, headers })).status).toBe(200);
    const { text: html } = await callRead("GET", "/video/video_034", { ip: uniqueIp() });
    expect(html).toContain(REMOVED_TEXT);
    expect(html).toContain("留下的回复");
    expect(html).not.toContain("会被删除的评论");
    expect(html).not.toContain(a.email);
    expect(html).not.toContain(b.email);
  });

  it("an anonymous page kept at the edge is not served stale after a post", async () => {
    const get = async () => {
      const ctx = createExecutionContext();
      const res = await app.fetch(new Request(BASE + "/video/video_035"), env, ctx);
      const html = await res.text();
      await waitOnExecutionContext(ctx);
      return { cache: res.headers.get("X-Cache"), html };
    };
    expect((await get()).cache).toBe("MISS");
    expect((await get()).cache).toBe("HIT");
    const { jar } = await signUp("comments-page-cache");
    expect((await call("POST", "/api/comments/title/video_035", { jar, headers: { Origin: BASE }, json: { text: "刚刚发表的评论" } })).status).toBe(201);
    const after = await get();
    expect(after.cache).toBe("MISS");
    expect(after.html).toContain("刚刚发表的评论");
    expect(after.html).toContain('<span class="comments-count">1</span>');
  });

  it("does not load the comment client with the page: it is a chunk of its own", async () => {
    const { text: html } = await callRead("GET", "/video/video_001");
    const client = Object.keys(clientAssets.lazy).find((m) => m.endsWith("shared/components/comments/CommentsClient.tsx"));
    expect(client, "the comment client is its own chunk").toBeDefined();
    const before = scriptsBeforeHydration(html);
    for (const file of clientAssets.lazy[client as string].filter((f) => f.includes("CommentsClient"))) expect(before).not.toContain(file);
    // Nor is the server's markup in the browser's bundle at all.
    expect(Object.keys(clientAssets.lazy).some((m) => m.endsWith("shared/components/comments/CommentsSection.tsx"))).toBe(false);
  });
});
