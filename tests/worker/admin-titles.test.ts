// 视频管理's writes: the catalogue schema's own rules and words, two admins saving the same
// title (the second save is refused, also when both arrive at once), the audit row of every
// write (before → after), a cover from the browser into R2 under the title's cover name, and a
// delete that leaves a tombstone for the import.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { validateCatalogue } from "../../shared/catalogue/schema";
import { enrolledHolder, post, type RoleHolder } from "./helpers/admin";
import { BASE, call, callRead } from "./helpers/visitor";

const ENTRY = {
  id: "video_9101",
  title: "并发编辑测试",
  description: "两个管理员同时编辑。",
  category: ["电视剧"],
  tags: [],
  year: 2024,
  rating: 7.5,
  duration: "45:00",
  coverImage: "9101.webp",
  videoFile: "9101.mp4",
  episodes: [
    { videoFile: "9101.mp4", duration: "45:00" },
    { videoFile: "9102.mp4", duration: "44:00", name: "第2集：相遇" },
  ],
};

let first: RoleHolder;
let second: RoleHolder;

interface Editable {
  version: number;
  entry: Record<string, unknown>;
}

async function read(id: string): Promise<Editable> {
  const { res, text } = await callRead("GET", `/api/admin/titles/${id}`, { jar: first.jar });
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as Editable;
}

async function audit(target: string): Promise<Array<{ action: string; actor_email: string; before_value: string | null; after_value: string | null }>> {
  return (
    await env.DB.prepare("SELECT action, actor_email, before_value, after_value FROM admin_audit WHERE target = ? ORDER BY id").bind(target).all<{
      action: string;
      actor_email: string;
      before_value: string | null;
      after_value: string | null;
    }>()
  ).results;
}

beforeAll(async () => {
  first = await enrolledHolder("admin", "titles-first");
  second = await enrolledHolder("admin", "titles-second");
  const res = await post("/api/admin/titles", first.jar, { entry: ENTRY });
  expect(res.status, await res.clone().text()).toBe(200);
});

describe("saving a title", () => {
  it("two admins open version N: the first save wins, the second is refused in Chinese and changes nothing", async () => {
    const opened = await read(ENTRY.id);
    const mine = await post(`/api/admin/titles/${ENTRY.id}`, first.jar, { entry: { ...opened.entry, title: "并发编辑测试（一）" }, version: opened.version });
    expect(mine.status, await mine.clone().text()).toBe(200);
    expect((await mine.json<{ version: number }>()).version).toBe(opened.version + 1);
    const theirs = await post(`/api/admin/titles/${ENTRY.id}`, second.jar, {
      entry: { ...opened.entry, title: "并发编辑测试（二）" },
      version: opened.version,
    });
    expect(theirs.status).toBe(409);
    const refusal = (await theirs.json<{ error: { code: string; message: string } }>()).error;
    expect(refusal.code).toBe("stale_version");
    expect(refusal.message).toContain(first.email);
    expect(refusal.message).toContain("你的内容未保存");
    expect((await read(ENTRY.id)).entry.title).toBe("并发编辑测试（一）");
  });

  it("two saves of the same version at the same moment: exactly one is kept", async () => {
    const opened = await read(ENTRY.id);
    const saves = await Promise.all(
      [first, second].map((who, i) =>
        post(`/api/admin/titles/${ENTRY.id}`, who.jar, { entry: { ...opened.entry, description: `同时保存 ${i}` }, version: opened.version }),
      ),
    );
    expect(saves.map((r) => r.status).sort()).toEqual([200, 409]);
    const now = await read(ENTRY.id);
    expect(now.version).toBe(opened.version + 1);
    // The rows derived from the entry belong to the save that won (the loser's batch left nothing).
    const winner = saves.findIndex((r) => r.status === 200);
    expect(now.entry.description).toBe(`同时保存 ${winner}`);
    const chars = await env.DB.prepare("SELECT count(*) AS n FROM search_chars WHERE title_id = ? AND char = ?")
      .bind(ENTRY.id, String(1 - winner))
      .first<{ n: number }>();
    expect(chars?.n).toBe(0);
  });

  it("an invalid entry is refused with every problem `npm run catalogue -- check` finds, in its words", async () => {
    const opened = await read(ENTRY.id);
    const bad = { ...opened.entry, title: "", year: 1800, episodes: [{ videoFile: "9101.mp4", duration: "45" }] };
    const res = await post(`/api/admin/titles/${ENTRY.id}`, first.jar, { entry: bad, version: opened.version });
    expect(res.status).toBe(400);
    const { error } = await res.json<{ error: { code: string; message: string; problems: string[] } }>();
    expect(error.code).toBe("invalid_entry");
    const check = validateCatalogue([bad]);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(error.problems).toHaveLength(check.problems.length);
    check.problems.forEach((p, i) => expect(error.problems[i]).toContain(p.message));
    expect(error.message).toMatch(/^有 \d+ 处需要修改/);
    expect(error.problems[0]).toContain("「标题」");
  });

  it("a media number another title uses is refused as the file check words it", async () => {
    const res = await post("/api/admin/titles", first.jar, {
      entry: { ...ENTRY, id: "video_9102", videoFile: "1.mp4", coverImage: "1.webp", episodes: undefined },
    });
    expect(res.status).toBe(400);
    expect((await res.json<{ error: { problems: string[] } }>()).error.problems[0]).toContain("媒体编号 1 已被 video_001 使用");
  });

  it("a new title with an id in use is refused", async () => {
    const res = await post("/api/admin/titles", first.jar, {
      entry: { ...ENTRY, id: "video_001", videoFile: "9199.mp4", coverImage: "9199.webp", episodes: undefined },
    });
    expect(res.status).toBe(409);
    expect((await res.json<{ error: { code: string } }>()).error.code).toBe("id_taken");
  });

  it("every write has its audit row: who, what, before → after", async () => {
    const rows = await audit(ENTRY.id);
    expect(rows[0]).toMatchObject({ action: "title.create", actor_email: first.email, before_value: "null" });
    const update = rows.find((r) => r.action === "title.update");
    expect(JSON.parse(update!.before_value!)).toMatchObject({ title: "并发编辑测试" });
    expect(JSON.parse(update!.after_value!)).toMatchObject({ title: "并发编辑测试（一）" });
  });
});

describe("a cover from the browser", () => {
  const webp = (size: number) => {
    const bytes = new Uint8Array(new ArrayBuffer(size));
    bytes.set(new TextEncoder().encode("RIFF"), 0);
    bytes.set(new TextEncoder().encode("WEBPVP8 "), 8);
    return bytes;
  };
  const upload = (body: Uint8Array<ArrayBuffer>, type = "image/webp") =>
    call("POST", `/api/admin/titles/${ENTRY.id}/cover`, { jar: first.jar, body, contentType: type, headers: { Origin: BASE } });

  it("is stored in R2 under the title's cover name, and audited", async () => {
    const res = await upload(webp(2048));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ cover: "/9101.webp", bytes: 2048 });
    const stored = await env.MEDIA.get("9101.webp");
    expect(stored?.size).toBe(2048);
    expect(stored?.httpMetadata?.contentType).toBe("image/webp");
    await stored?.arrayBuffer();
    expect((await audit(ENTRY.id)).some((r) => r.action === "title.cover")).toBe(true);
  });

  it("anything but WebP is refused in Chinese", async () => {
    const png = await upload(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
    expect(png.status).toBe(400);
    expect((await png.json<{ error: { message: string } }>()).error.message).toContain("WebP");
    expect((await upload(webp(100), "image/png")).status).toBe(415);
  });
});

describe("deleting", () => {
  it("removes the title and its rows and leaves a tombstone, audited", async () => {
    const created = await post("/api/admin/titles", first.jar, {
      entry: { ...ENTRY, id: "video_9103", videoFile: "9103.mp4", coverImage: "9103.webp", episodes: undefined },
    });
    expect(created.status).toBe(200);
    const res = await post("/api/admin/titles/video_9103/delete", first.jar);
    expect(res.status).toBe(200);
    expect((await call("GET", "/api/admin/titles/video_9103", { jar: first.jar })).status).toBe(404);
    const left = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM title_media WHERE title_id = ?1) + (SELECT count(*) FROM search_chars WHERE title_id = ?1) AS n",
    )
      .bind("video_9103")
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect(await env.DB.prepare("SELECT deleted_by FROM catalogue_deletions WHERE id = ?").bind("video_9103").first()).toEqual({ deleted_by: first.email });
    expect((await audit("video_9103")).map((r) => r.action)).toEqual(["title.create", "title.delete"]);
  });
});

describe("the pages (forms without JavaScript)", () => {
  const form = (path: string, fields: Record<string, string> | string) =>
    call("POST", path, {
      jar: first.jar,
      ...(typeof fields === "string" ? { body: fields, contentType: "application/x-www-form-urlencoded" } : { form: fields }),
      headers: { Origin: BASE },
    });
  const NEW = {
    id: "video_9104",
    title: "表单新建",
    description: "从表单新建。",
    category: "综艺，真人秀",
    tags: "",
    year: "2025",
    rating: "8",
    duration: "45:00",
    videoFile: "9104.mp4",
    coverImage: "9104.webp",
    episodes: "9104.mp4 | 45:00 | 第1期：开场\n9105.mp4 | 46:00",
    state: "scheduled",
    publishAt: "2099-05-01T20:00",
  };

  it("the list, a new title from the form (episodes one a line, 定时发布 in Beijing time), its edit page", async () => {
    const list = await callRead("GET", "/admin/titles?q=lwgl", { jar: first.jar });
    expect(list.res.status).toBe(200);
    expect(list.text).toContain("视频管理");
    const created = await form("/admin/titles/new", NEW);
    expect(created.status, await created.clone().text()).toBe(303);
    expect(created.headers.get("Location")).toBe("/admin/titles/video_9104?done=created");
    const saved = await read("video_9104");
    expect(saved.entry).toMatchObject({
      category: ["综艺", "真人秀"],
      publishAt: "2099-05-01T20:00:00+08:00",
      episodes: [
        { videoFile: "/9104.mp4", duration: "45:00", name: "第1期：开场" },
        { videoFile: "/9105.mp4", duration: "46:00" },
      ],
    });
    const edit = await callRead("GET", "/admin/titles/video_9104?done=created", { jar: first.jar });
    expect(edit.text).toContain("已创建");
    expect(edit.text).toContain('value="2099-05-01T20:00"');
  });

  it("a stale form is refused with the Chinese message and shows what is saved now", async () => {
    const opened = await read("video_9104");
    const fresh = await form("/admin/titles/video_9104", { ...NEW, title: "表单新建（一）", version: String(opened.version) });
    expect(fresh.status).toBe(303);
    const stale = await form("/admin/titles/video_9104", { ...NEW, title: "表单新建（二）", version: String(opened.version) });
    expect(stale.status).toBe(409);
    const page = await stale.text();
    expect(page).toContain("你的内容未保存");
    expect(page).toContain("表单新建（一）");
  });

  it("a bad field is shown next to the form with the schema's message, the typed values kept", async () => {
    const opened = await read("video_9104");
    const res = await form("/admin/titles/video_9104", { ...NEW, year: "一九九九", version: String(opened.version) });
    expect(res.status).toBe(400);
    const page = await res.text();
    expect(page).toContain("「年份」");
    expect(page).toContain("必须是数字");
    expect(page).toContain('value="一九九九"');
  });

  it("a bulk delete asks for confirmation first (no JavaScript), then deletes", async () => {
    const ask = await form("/admin/titles/bulk", "action=delete&id=video_9104&back=%2Fadmin%2Ftitles");
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain("确认删除");
    expect((await call("GET", "/api/admin/titles/video_9104", { jar: first.jar })).status).toBe(200);
    const done = await form("/admin/titles/bulk", "action=delete&confirmed=yes&id=video_9104&back=%2Fadmin%2Ftitles");
    expect(done.status).toBe(303);
    expect(decodeURIComponent(done.headers.get("Location") ?? "")).toContain("已删除 1 个视频");
    expect((await call("GET", "/api/admin/titles/video_9104", { jar: first.jar })).status).toBe(404);
  });
});
