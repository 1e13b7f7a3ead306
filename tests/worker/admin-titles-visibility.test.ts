// 视频管理's publication states against every surface a viewer or an app reads (one table of
// surfaces): a title created in the 管理后台 is everywhere once published, gone from all of them
// (pages 404, listings, search, home, ranking, /api/titles, sitemap, RSS, the provide API, its
// playlists and /N.mp4) when taken down, a draft or scheduled for later — through the edge caches,
// which the catalogue's version keeps current — and back when published; a scheduled title
// appears at its time without any write (publish_at moved into the past: no sleeping).
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { utcDay } from "../../shared/ranking";
import { forgetContentTag } from "../../worker/content-version";
import { enrolledHolder, post, type RoleHolder } from "./helpers/admin";
import { callRead } from "./helpers/visitor";

const ID = "video_9001";
const MEDIA = 9001;
const NAME = "管理后台测试片";

const ENTRY = {
  id: ID,
  title: NAME,
  description: "一部只为测试发布状态而建的影片。",
  category: ["电影", "剧情"],
  tags: ["测试"],
  // The newest year and the best rating: first in 最新, 高分 and the home page's rows.
  year: 2100,
  rating: 10,
  duration: "01:30:00",
  coverImage: `${MEDIA}.webp`,
  videoFile: `${MEDIA}.mp4`,
};

interface Surface {
  name: string;
  path: string;
  /** Whether the answer shows the title (a status check for the pages and media). */
  shows: (status: number, text: string) => boolean;
}

const holds = (status: number, text: string) => status === 200 && text.includes(ID);
/** The provide API names titles by number (vod_id) and name. */
const named = (status: number, text: string) => status === 200 && text.includes(NAME);
const served = (status: number) => status === 200;

/** Every place a viewer or an app finds a title. */
const SURFACES: readonly Surface[] = [
  { name: "video page", path: `/video/${ID}`, shows: served },
  { name: "video page data", path: `/api/page/video/${ID}`, shows: served },
  { name: "/category/all (newest first)", path: "/category/all?sort=latest", shows: holds },
  { name: "/latest data", path: "/api/page/latest", shows: holds },
  { name: "home page data", path: "/api/page/", shows: holds },
  { name: "search page data", path: `/api/page/search?q=${encodeURIComponent(NAME)}`, shows: holds },
  { name: "search suggestions", path: `/api/search/suggest?q=${encodeURIComponent(NAME)}`, shows: holds },
  { name: "ranking", path: "/api/ranking", shows: holds },
  { name: "cards by id (continue watching)", path: `/api/titles?ids=${ID}`, shows: holds },
  { name: "sitemap part", path: "/sitemap-1.xml", shows: holds },
  { name: "RSS", path: "/rss.xml", shows: holds },
  { name: "provide API list", path: "/api.php/provide/vod/?ac=list", shows: named },
  { name: "provide API search", path: `/api.php/provide/vod/?ac=detail&wd=${encodeURIComponent(NAME)}`, shows: named },
  { name: "provide API ids", path: `/api.php/provide/vod/?ac=detail&ids=${MEDIA}`, shows: named },
  { name: "master playlist", path: `/stream/${MEDIA}/master.m3u8`, shows: served },
  { name: "progressive file", path: `/${MEDIA}.mp4`, shows: served },
];

async function visible(): Promise<Record<string, boolean>> {
  const seen: Record<string, boolean> = {};
  for (const surface of SURFACES) {
    const { res, text } = await callRead("GET", surface.path);
    seen[surface.name] = surface.shows(res.status, text);
  }
  return seen;
}

const everywhere = (value: boolean) => Object.fromEntries(SURFACES.map((s) => [s.name, value]));

let admin: RoleHolder;

async function bulk(action: string): Promise<void> {
  const res = await post("/api/admin/titles/bulk", admin.jar, { action, ids: [ID] });
  expect(res.status, await res.clone().text()).toBe(200);
  expect((await res.json<{ done: string[] }>()).done).toEqual([ID]);
}

async function edit(changes: Record<string, unknown>): Promise<Response> {
  const { text } = await callRead("GET", `/api/admin/titles/${ID}`, { jar: admin.jar });
  const { version, entry } = JSON.parse(text) as { version: number; entry: object };
  return post(`/api/admin/titles/${ID}`, admin.jar, { entry: { ...entry, ...changes }, version });
}

beforeAll(async () => {
  admin = await enrolledHolder("admin", "titles-visibility");
  await env.MEDIA.put(`stream/${MEDIA}/master.m3u8`, "#EXTM3U\n#EXT-X-VERSION:7\n");
  await env.MEDIA.put(`${MEDIA}.mp4`, new Uint8Array(64));
  await env.DB.prepare("INSERT INTO title_plays (title_id, day, plays) VALUES (?, ?, 1000000)").bind(ID, utcDay(Date.now())).run();
  const res = await post("/api/admin/titles", admin.jar, { entry: { ...ENTRY, state: "draft" } });
  expect(res.status, await res.clone().text()).toBe(200);
});

describe("a title's state decides every surface", () => {
  it("a draft is nowhere; published it is everywhere; taken down it is gone from all; published again it is back", async () => {
    expect(await visible()).toEqual(everywhere(false));
    // The pages of the edge cache were rendered just now without it: publishing must reach them.
    await bulk("publish");
    expect(await visible()).toEqual(everywhere(true));
    await bulk("unpublish");
    expect(await visible()).toEqual(everywhere(false));
    const page = await callRead("GET", `/video/${ID}`);
    expect(page.res.status).toBe(404);
    await bulk("publish");
    expect(await visible()).toEqual(everywhere(true));
  });

  it("a scheduled title is absent until its time, then appears by itself", async () => {
    const later = await edit({ publishAt: "2099-01-01T20:00:00+08:00" });
    expect(later.status, await later.clone().text()).toBe(200);
    expect(await visible()).toEqual(everywhere(false));
    // Its time comes (the row's publish_at moves into the past instead of the test waiting).
    await env.DB.prepare("UPDATE catalogue_titles SET publish_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, ID)
      .run();
    // …and the isolate's memo of the content version is past its MEMO_MS (another isolate would read it anew).
    forgetContentTag();
    expect(await visible()).toEqual(everywhere(true));
    const { text } = await callRead("GET", `/api/admin/titles?q=${encodeURIComponent(NAME)}&state=published`, { jar: admin.jar });
    expect((JSON.parse(text) as { items: Array<{ id: string; state: string }> }).items.map((i) => [i.id, i.state])).toEqual([[ID, "published"]]);
  });

  it("the admin list still finds the title by pinyin initials when it is taken down", async () => {
    await bulk("unpublish");
    const { text } = await callRead("GET", `/api/admin/titles?q=glhtcsp&state=unpublished`, { jar: admin.jar });
    expect((JSON.parse(text) as { items: Array<{ id: string; state: string }> }).items.map((i) => [i.id, i.state])).toEqual([[ID, "unpublished"]]);
    await bulk("publish");
  });
});
