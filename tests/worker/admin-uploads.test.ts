// 上传视频's endpoint (worker/admin/media-uploads.ts): objects go only under the upload's own new
// media number and only by contract names; a body of other bytes than its SHA-256 stores nothing;
// nothing of an unfinished upload is reachable; publishing refuses a package with a missing or
// unverified object and otherwise switches the title in one batch; 继续上传 sees what is stored;
// an abandoned or stale upload is cleaned up. The packages here are synthetic (bytes under the
// contract's names): the worker checks names, sizes, hashes and references, not pixels.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { writeMasterPlaylist, writeMediaPlaylist } from "../../shared/stream/hls";
import { storyboardLayout, spriteName, writeStoryboardVtt } from "../../shared/stream/storyboard";
import { writeSubtitlePlaylist, writeSubtitlesVtt } from "../../shared/stream/subtitles";
import { streamNames } from "../../shared/stream/contract";
import { enrolledHolder, post, SAME_SITE, type RoleHolder } from "./helpers/admin";
import { call, callRead } from "./helpers/visitor";

const FILM = {
  id: "video_9301",
  title: "上传测试电影",
  description: "浏览器打包上传。",
  category: ["电影"],
  tags: [],
  year: 2025,
  rating: 0,
  duration: "01:00",
  coverImage: "9301.webp",
  videoFile: "9301.mp4",
};

const SERIES = {
  ...FILM,
  id: "video_9302",
  title: "上传测试剧集",
  category: ["电视剧"],
  coverImage: "9302.webp",
  videoFile: "9302.mp4",
  episodes: [{ videoFile: "9302.mp4", duration: "01:00" }],
};

let admin: RoleHolder;

beforeAll(async () => {
  admin = await enrolledHolder("admin", "uploads");
  for (const entry of [FILM, SERIES]) {
    const res = await post("/api/admin/titles", admin.jar, { entry });
    expect(res.status, await res.clone().text()).toBe(200);
  }
});

const encoder = new TextEncoder();

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A synthetic two-rung package of `seconds` seconds: name → bytes. */
function fakePackage(seconds: number): Map<string, Uint8Array<ArrayBuffer>> {
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);
  const count = Math.ceil(seconds / 2);
  const variants = [270, 360].map((h, r) => {
    const v = `0000000${r}`;
    files.set(streamNames.init(h, v), bytes(700, h));
    const segments = Array.from({ length: count }, (_, i) => {
      const name = streamNames.segment(h, v, i);
      files.set(name, bytes(2000 + i, h + i));
      return { uri: name, duration: Math.min(2, seconds - 2 * i) };
    });
    files.set(streamNames.mediaPlaylist(h), encoder.encode(writeMediaPlaylist({ segments, map: streamNames.init(h, v) })));
    return {
      bandwidth: 100_000 * (r + 1),
      width: (h * 16) / 9,
      height: h,
      codecs: ["avc1.4d401e", "mp4a.40.2"],
      subtitles: "subs",
      uri: streamNames.mediaPlaylist(h),
    };
  });
  files.set(streamNames.subtitles, encoder.encode(writeSubtitlesVtt([{ start: 0, end: 1, text: "你好" }], 0)));
  files.set(streamNames.subtitlePlaylist, encoder.encode(writeSubtitlePlaylist(seconds)));
  const layout = storyboardLayout(seconds);
  files.set(streamNames.storyboard, encoder.encode(writeStoryboardVtt(layout, spriteName("abcdef01"))));
  files.set(streamNames.sprite("abcdef01", 0), bytes(900, 7));
  files.set(
    streamNames.master,
    encoder.encode(
      writeMasterPlaylist({
        variants,
        subtitles: [{ groupId: "subs", name: "中文", language: "zh-CN", isDefault: false, autoselect: true, uri: streamNames.subtitlePlaylist }],
      }),
    ),
  );
  files.set("video.mp4", bytes(5000, 3));
  files.set("cover.webp", Uint8Array.from([...encoder.encode("RIFF"), 0, 0, 0, 0, ...encoder.encode("WEBPVP8 "), ...bytes(50, 9)]));
  return files;
}

interface Upload {
  id: string;
  number: number;
}

async function start(titleId: string, episode: number | null = null): Promise<Upload> {
  const res = await post("/api/admin/uploads", admin.jar, { titleId, episode, source: { name: "clip.mp4", size: 12345, lastModified: 1 } });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json<Upload>();
}

async function put(upload: Upload, name: string, bytes: Uint8Array<ArrayBuffer>, sha?: string): Promise<Response> {
  return call("PUT", `/api/admin/uploads/${upload.id}/objects/${name}`, {
    jar: admin.jar,
    body: bytes,
    headers: { ...SAME_SITE, "X-Content-SHA256": sha ?? (await sha256(bytes)) },
  });
}

async function putAll(upload: Upload, files: Map<string, Uint8Array<ArrayBuffer>>, skip: ReadonlySet<string> = new Set()): Promise<void> {
  for (const [name, bytes] of files) {
    if (skip.has(name)) continue;
    const res = await put(upload, name, bytes);
    expect(res.status, `${name}: ${await res.clone().text()}`).toBe(201);
  }
}

const totals = (files: Map<string, Uint8Array<ArrayBuffer>>) => ({ objects: files.size, bytes: [...files.values()].reduce((s, b) => s + b.length, 0) });

async function entryOf(id: string): Promise<typeof FILM & { episodes?: Array<{ videoFile: string; duration: string }> }> {
  return ((await editable(id)) as { entry: typeof FILM & { episodes?: Array<{ videoFile: string; duration: string }> } }).entry;
}

async function editable(id: string): Promise<unknown> {
  const { text } = await callRead("GET", `/api/admin/titles/${id}`, { jar: admin.jar });
  // The catalogue keeps file names as written; compare them without a leading "/".
  return JSON.parse(text.replace(/"\/([0-9]+\.(?:mp4|webp))"/g, '"$1"')) as unknown;
}

async function keysOf(number: number): Promise<string[]> {
  const listed = await env.MEDIA.list({ prefix: `stream/${number}/` });
  const top = await Promise.all([`${number}.mp4`, `${number}.webp`].map((k) => env.MEDIA.head(k)));
  return [...listed.objects.map((o) => o.key), ...top.filter((o) => o !== null).map((o) => o.key)];
}

describe("object names and keys", () => {
  it("only contract names, video.mp4 and cover.webp; each lands under the upload's own number", async () => {
    const upload = await start(FILM.id);
    expect(upload.number).toBeGreaterThanOrEqual(200000);
    const bytes = encoder.encode("#EXTM3U\n");
    for (const name of [
      "../1.mp4",
      "..%2F1.mp4",
      "%2e%2e%2F1.webp",
      "1.mp4",
      "stream%2F1%2Fmaster.m3u8",
      "MASTER.m3u8",
      "master.m3u8%00",
      "sub/master.m3u8",
      "x.txt",
      "",
    ]) {
      const res = await put(upload, name, bytes);
      expect([400, 404], `${name}: ${res.status}`).toContain(res.status);
      const body = await res.json<{ error: { code: string; message: string } }>();
      expect(body.error.message).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(await env.MEDIA.head("1.webp").then((o) => o?.size)).not.toBe(bytes.length);
    expect(await keysOf(upload.number)).toEqual([]);
    const ok = await put(upload, "master.m3u8", bytes);
    expect(ok.status, await ok.clone().text()).toBe(201);
    expect(await keysOf(upload.number)).toEqual([`stream/${upload.number}/master.m3u8`]);
  });

  it("a body of other bytes than its SHA-256, or of another length, stores nothing", async () => {
    const upload = await start(FILM.id);
    const bytes = encoder.encode("segment bytes");
    const wrong = await put(upload, streamNames.segment(270, "00000000", 0), bytes, await sha256(encoder.encode("other bytes")));
    expect(wrong.status).toBe(400);
    expect((await wrong.json<{ error: { message: string } }>()).error.message).toContain("X-Content-SHA256");
    const missing = await call("PUT", `/api/admin/uploads/${upload.id}/objects/master.m3u8`, { jar: admin.jar, body: bytes, headers: SAME_SITE });
    expect(missing.status).toBe(400);
    expect(await keysOf(upload.number)).toEqual([]);
    const detail = await (await call("GET", `/api/admin/uploads/${upload.id}`, { jar: admin.jar })).json<{ objects: unknown[] }>();
    expect(detail.objects).toEqual([]);
  });

  it("an unknown or malformed upload id is 404, and a master playlist over its kind's limit (1 MiB) is refused before any byte is stored", async () => {
    for (const id of ["0".repeat(32), "..", "ZZ"]) {
      const res = await put({ id, number: 0 }, "master.m3u8", encoder.encode("x"));
      expect(res.status, id).toBe(404);
    }
    const upload = await start(FILM.id);
    const res = await call("PUT", `/api/admin/uploads/${upload.id}/objects/master.m3u8`, {
      jar: admin.jar,
      body: new Uint8Array(1024 * 1024 + 1),
      headers: { ...SAME_SITE, "X-Content-SHA256": "0".repeat(64) },
    });
    expect(res.status).toBe(413);
  });
});

describe("publishing", () => {
  it("nothing of an unfinished upload is reachable; a missing segment refuses the publish; the complete package goes live in one switch", async () => {
    const files = fakePackage(5);
    const upload = await start(FILM.id);
    const missing = streamNames.segment(360, "00000001", 2);
    await putAll(upload, files, new Set([missing]));
    for (const path of [`/stream/${upload.number}/master.m3u8`, `/stream/${upload.number}/270p.m3u8`, `/${upload.number}.mp4`, `/${upload.number}.webp`]) {
      expect((await call("GET", path)).status, path).toBe(404);
    }
    // The playlist names a segment that is not there: refused, whatever the page counted.
    const refused = await post(`/api/admin/uploads/${upload.id}/publish`, admin.jar, totals(files));
    expect(refused.status).toBe(409);
    const why = await refused.json<{ error: { code: string; message: string } }>();
    expect(why.error.code).toBe("missing_object");
    expect(why.error.message).toContain(missing);
    expect((await entryOf(FILM.id)).videoFile).toBe(FILM.videoFile);
    expect((await call("GET", `/stream/${upload.number}/master.m3u8`)).status).toBe(404);

    // 继续上传: the server says what it has; the rest goes up; then the publish succeeds.
    const detail = await (
      await call("GET", `/api/admin/uploads/${upload.id}`, { jar: admin.jar })
    ).json<{ objects: Array<{ name: string; sha256: string }> }>();
    expect(detail.objects.map((o) => o.name).sort()).toEqual([...files.keys()].filter((n) => n !== missing).sort());
    const pending = await (await call("GET", `/api/admin/uploads?title=${FILM.id}`, { jar: admin.jar })).json<{ uploads: Array<{ id: string }> }>();
    expect(pending.uploads.map((u) => u.id)).toContain(upload.id);
    await putAll(upload, new Map([[missing, files.get(missing)!]]));
    // An object of an earlier run that nothing references is not part of the package (and goes after publishing).
    const stale = streamNames.segment(360, "0000000f", 0);
    await putAll(upload, new Map([[stale, files.get(missing)!]]));
    // The page counts what it sent: a count that disagrees with the package is refused.
    const wrongCount = await post(`/api/admin/uploads/${upload.id}/publish`, admin.jar, { ...totals(files), objects: files.size - 1 });
    expect(wrongCount.status).toBe(409);
    expect((await wrongCount.json<{ error: { code: string } }>()).error.code).toBe("incomplete");
    const published = await post(`/api/admin/uploads/${upload.id}/publish`, admin.jar, totals(files));
    expect(published.status, await published.clone().text()).toBe(200);
    const entry = await entryOf(FILM.id);
    expect(entry.videoFile).toBe(`${upload.number}.mp4`);
    expect(entry.coverImage).toBe(`${upload.number}.webp`);
    expect(entry.duration).toBe("00:05");
    const master = await callRead("GET", `/stream/${upload.number}/master.m3u8`);
    expect(master.res.status).toBe(200);
    expect(master.text).toContain("270p.m3u8");
    expect((await call("GET", `/${upload.number}.webp`)).status).toBe(200);
    expect(await env.MEDIA.head(`stream/${upload.number}/${stale}`)).toBeNull();
    const audit = await env.DB.prepare("SELECT action FROM admin_audit WHERE target = ? ORDER BY id").bind(FILM.id).all<{ action: string }>();
    expect(audit.results.map((r) => r.action)).toEqual(expect.arrayContaining(["media.upload", "media.publish", "title.update"]));
    // Published: no more writes, no second publish.
    expect((await put(upload, "master.m3u8", encoder.encode("#EXTM3U\n"))).status).toBe(409);
    expect((await post(`/api/admin/uploads/${upload.id}/publish`, admin.jar, totals(files))).status).toBe(409);
  });

  it("a playlist that names a file outside the contract is refused", async () => {
    const files = fakePackage(3);
    files.set(
      streamNames.mediaPlaylist(270),
      encoder.encode(writeMediaPlaylist({ segments: [{ uri: "../1.mp4", duration: 2 }], map: streamNames.init(270, "00000000") })),
    );
    const upload = await start(FILM.id);
    await putAll(upload, files);
    const res = await post(`/api/admin/uploads/${upload.id}/publish`, admin.jar, totals(files));
    expect(res.status).toBe(409);
    expect((await res.json<{ error: { code: string } }>()).error.code).toBe("bad_package");
  });

  it("an episode: a new one at the end of a series, and never on a film", async () => {
    const film = await post("/api/admin/uploads", admin.jar, { titleId: FILM.id, episode: 2, source: { name: "a.mp4", size: 1, lastModified: 1 } });
    expect(film.status).toBe(400);
    const files = fakePackage(3);
    files.delete("cover.webp");
    const upload = await start(SERIES.id, 2);
    await putAll(upload, files);
    const res = await post(`/api/admin/uploads/${upload.id}/publish`, admin.jar, totals(files));
    expect(res.status, await res.clone().text()).toBe(200);
    const entry = await entryOf(SERIES.id);
    expect(entry.episodes).toEqual([
      { videoFile: "9302.mp4", duration: "01:00" },
      // The new package's subtitle languages (tests/worker/admin-uploads-subtitles.test.ts).
      { videoFile: `${upload.number}.mp4`, duration: "00:03", subtitles: ["zh-CN"] },
    ]);
    expect(entry.coverImage).toBe(SERIES.coverImage);
  });
});

describe("clean-up", () => {
  it("放弃上传 deletes what was uploaded and closes the upload", async () => {
    const files = fakePackage(3);
    const upload = await start(FILM.id);
    await putAll(upload, files);
    expect((await keysOf(upload.number)).length).toBeGreaterThan(0);
    const res = await post(`/api/admin/uploads/${upload.id}/abandon`, admin.jar);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await keysOf(upload.number)).toEqual([]);
    expect(await env.MEDIA.head(`uploads/${upload.id}/cover.webp`)).toBeNull();
    expect((await put(upload, "master.m3u8", encoder.encode("#EXTM3U\n"))).status).toBe(409);
    expect((await post(`/api/admin/uploads/${upload.id}/publish`, admin.jar, totals(files))).status).toBe(409);
  });

  it("an upload left for more than 7 days is swept when another starts", async () => {
    const files = fakePackage(3);
    const stale = await start(SERIES.id);
    await putAll(stale, files);
    await env.DB.prepare("UPDATE media_uploads SET updated_at = updated_at - 8 * 86400000 WHERE id = ?").bind(stale.id).run();
    await start(SERIES.id);
    expect(await keysOf(stale.number)).toEqual([]);
    const row = await env.DB.prepare("SELECT state, cleaned_at FROM media_uploads WHERE id = ?")
      .bind(stale.id)
      .first<{ state: string; cleaned_at: number | null }>();
    expect(row?.state).toBe("abandoned");
    expect(row?.cleaned_at).not.toBeNull();
    expect((await call("GET", `/stream/${stale.number}/master.m3u8`)).status).toBe(404);
  });
});
