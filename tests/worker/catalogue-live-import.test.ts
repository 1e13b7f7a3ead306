// The catalogue file meets the live catalogue (docs/decisions/0074-live-catalogue.md): an export
// and an import of it change nothing and settle the web edits it holds; a file that does not know
// a web edit never overwrites it (conflict reported, live kept) unless --prefer-file; a file entry
// edited after the export (it carries the live version) wins; titles created or deleted on the web
// survive an older file. Through the import's own code on workerd's D1.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { importIntoLive, liveCatalogue, type Conflict } from "../../shared/catalogue/live-import";
import type { TitleEntry } from "../../shared/catalogue/schema";
import { d1CatalogueDb } from "../../worker/catalogue/import-db";
import { enrolledHolder, post, type RoleHolder } from "./helpers/admin";
import { callRead } from "./helpers/visitor";

const db = () => d1CatalogueDb(env.DB);
let admin: RoleHolder;
/** The catalogue file as it was imported (no web edit yet). */
let original: TitleEntry[];

async function webEdit(id: string, changes: Partial<TitleEntry>): Promise<void> {
  const { text } = await callRead("GET", `/api/admin/titles/${id}`, { jar: admin.jar });
  const { version, entry } = JSON.parse(text) as { version: number; entry: TitleEntry };
  const res = await post(`/api/admin/titles/${id}`, admin.jar, { entry: { ...entry, ...changes }, version });
  expect(res.status, await res.clone().text()).toBe(200);
}

const titleOf = async (id: string) =>
  await env.DB.prepare("SELECT title, edited_at FROM catalogue_titles WHERE id = ?").bind(id).first<{ title: string; edited_at: number | null }>();
const kinds = (conflicts: readonly Conflict[]) => conflicts.map((c) => [c.id, c.kind, c.kept]);

beforeAll(async () => {
  admin = await enrolledHolder("admin", "live-import");
  original = await liveCatalogue(db());
});

describe("import and export", () => {
  it("an export of a catalogue never edited on the web is the file; importing it changes nothing", async () => {
    expect(original.every((e) => e.version === undefined && e.state === undefined)).toBe(true);
    const report = await importIntoLive(db(), original);
    expect(report).toMatchObject({ added: 0, changed: 0, removed: 0, conflicts: [] });
  });

  it("a stale file never overwrites a web edit: conflict reported, live kept; --prefer-file lets the file win", async () => {
    await webEdit("video_003", { title: "网页上改过的标题" });
    const report = await importIntoLive(db(), original);
    expect(kinds(report.conflicts)).toEqual([["video_003", "edited_on_web", "live"]]);
    expect(report.conflicts[0].by).toBe(admin.email);
    expect((await titleOf("video_003"))?.title).toBe("网页上改过的标题");
    // Importing again reports it again (nothing dropped silently), still keeping the live title.
    expect(kinds((await importIntoLive(db(), original)).conflicts)).toEqual([["video_003", "edited_on_web", "live"]]);
    const forced = await importIntoLive(db(), original, { preferFile: true });
    expect(kinds(forced.conflicts)).toEqual([["video_003", "edited_on_web", "file"]]);
    expect(await titleOf("video_003")).toEqual({ title: original[2].title, edited_at: null });
  });

  it("round trip: web edits, a web-created and a web-taken-down title are exported, and the export imports with no conflict and no change", async () => {
    await webEdit("video_004", { title: "导出往返测试", state: "unpublished" });
    const created = await post("/api/admin/titles", admin.jar, {
      entry: { ...original[0], id: "video_9201", title: "网页新建", videoFile: "9201.mp4", coverImage: "9201.webp", state: "draft" },
    });
    expect(created.status).toBe(200);
    const exported = await liveCatalogue(db());
    const four = exported.find((e) => e.id === "video_004");
    expect(four).toMatchObject({ title: "导出往返测试", state: "unpublished" });
    expect(four?.version).toBeGreaterThan(1);
    expect(exported.at(-1)).toMatchObject({ id: "video_9201", state: "draft", version: 1 });
    const report = await importIntoLive(db(), JSON.parse(JSON.stringify(exported)) as TitleEntry[]);
    expect(report).toMatchObject({ added: 0, changed: 0, removed: 0, conflicts: [] });
    // The file now holds those edits: they are settled.
    expect((await titleOf("video_004"))?.edited_at).toBeNull();
    expect((await titleOf("video_9201"))?.edited_at).toBeNull();
    expect(await liveCatalogue(db())).toEqual(exported.map(({ version, ...rest }) => (void version, rest)));
  });

  it("a file entry edited after exporting the latest web edit wins; one based on an older version does not", async () => {
    await webEdit("video_005", { title: "第一次网页修改" });
    const exported = await liveCatalogue(db());
    const five = exported.find((e) => e.id === "video_005")!;
    const edited = exported.map((e) => (e.id === "video_005" ? { ...e, title: "导出后在文件中修改" } : e));
    const report = await importIntoLive(db(), edited);
    expect(report.conflicts).toEqual([]);
    expect((await titleOf("video_005"))?.title).toBe("导出后在文件中修改");
    // A web edit after that; the same file (its version is now old) is refused for that title.
    await webEdit("video_005", { title: "第二次网页修改" });
    const stale = edited.map((e) => (e.id === "video_005" ? { ...e, title: "基于旧版本的文件修改", version: five.version } : e));
    expect(kinds((await importIntoLive(db(), stale)).conflicts)).toEqual([["video_005", "edited_on_web", "live"]]);
    expect((await titleOf("video_005"))?.title).toBe("第二次网页修改");
  });

  it("a title created on the web is kept by an older file; one deleted on the web is not brought back", async () => {
    const created = await post("/api/admin/titles", admin.jar, {
      entry: { ...original[0], id: "video_9202", title: "网页新建二", videoFile: "9202.mp4", coverImage: "9202.webp" },
    });
    expect(created.status).toBe(200);
    expect((await post("/api/admin/titles/video_006/delete", admin.jar)).status).toBe(200);
    const file = (await liveCatalogue(db())).filter((e) => e.id !== "video_9202");
    file.splice(5, 0, original[5]);
    const report = await importIntoLive(db(), file);
    expect(kinds(report.conflicts)).toEqual([
      ["video_006", "deleted_on_web", "live"],
      ["video_9202", "only_on_web", "live"],
    ]);
    expect(await titleOf("video_9202")).not.toBeNull();
    expect(await titleOf("video_006")).toBeNull();
    // Once the file no longer has it, the tombstone goes.
    await importIntoLive(db(), await liveCatalogue(db()));
    expect(await env.DB.prepare("SELECT count(*) AS n FROM catalogue_deletions WHERE id = 'video_006'").first<{ n: number }>()).toEqual({ n: 0 });
  });
});
