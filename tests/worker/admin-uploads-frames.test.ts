// What the browser packer adds to an upload (decisions 0098 and 0099): the link-preview frames
// (frame-kkkkk.jpg) and a series episode's audio fingerprint (audio.fp) are part of the package
// publishing counts, the frames are then what /share-image/{id}?t= answers, the fingerprint is kept
// out of every served path and read back by the next episode's upload, and the 片头 / 片尾 that
// upload found are written into the entry at publishing (the operator's stay). Synthetic packages,
// as tests/worker/admin-uploads.test.ts: the worker checks names, sizes and references, not pixels.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { fingerprintBytes } from "../../shared/media/mono-pcm";
import { streamNames } from "../../shared/stream/contract";
import { writeMasterPlaylist, writeMediaPlaylist } from "../../shared/stream/hls";
import { shareFrameName } from "../../shared/stream/share-frames";
import { fingerprintKey } from "../../shared/upload/package";
import { enrolledHolder, post, SAME_SITE, type RoleHolder } from "./helpers/admin";
import { call, callRead } from "./helpers/visitor";

const FILM = {
  id: "video_9311",
  title: "分享画面测试电影",
  description: "浏览器打包上传。",
  category: ["电影"],
  tags: [],
  year: 2025,
  rating: 0,
  duration: "00:25",
  coverImage: "9311.webp",
  videoFile: "9311.mp4",
};

const SERIES = {
  ...FILM,
  id: "video_9312",
  title: "片头识别测试剧集",
  category: ["电视剧"],
  coverImage: "9312.webp",
  videoFile: "9312.mp4",
  episodes: [
    { videoFile: "9312.mp4", duration: "00:25" },
    { videoFile: "9313.mp4", duration: "00:25", outro: { start: 20, end: 24 } },
  ],
};

let admin: RoleHolder;

beforeAll(async () => {
  admin = await enrolledHolder("admin", "upload-frames");
  for (const entry of [FILM, SERIES]) {
    const res = await post("/api/admin/titles", admin.jar, { entry });
    expect(res.status, await res.clone().text()).toBe(200);
  }
});

const encoder = new TextEncoder();
const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

/** A one-rung package of 25 s as the browser packs it: segments, playlists, progressive file, cover, three frames; `extra` besides. */
function browserPackage(seed: number, extra: Record<string, Uint8Array<ArrayBuffer>> = {}): Map<string, Uint8Array<ArrayBuffer>> {
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  const v = "0000000a";
  files.set(streamNames.init(270, v), bytes(700, seed));
  const segments = Array.from({ length: 13 }, (_, i) => {
    files.set(streamNames.segment(270, v, i), bytes(300 + i, seed + i));
    return { uri: streamNames.segment(270, v, i), duration: i < 12 ? 2 : 1 };
  });
  files.set(streamNames.mediaPlaylist(270), encoder.encode(writeMediaPlaylist({ segments, map: streamNames.init(270, v) })));
  files.set(
    streamNames.master,
    encoder.encode(
      writeMasterPlaylist({
        variants: [{ bandwidth: 100_000, width: 480, height: 270, codecs: ["avc1.4d401e", "mp4a.40.2"], uri: streamNames.mediaPlaylist(270) }],
      }),
    ),
  );
  files.set("video.mp4", bytes(5000, seed));
  files.set("cover.webp", Uint8Array.from([...encoder.encode("RIFF"), 0, 0, 0, 0, ...encoder.encode("WEBPVP8 "), ...bytes(50, seed)]));
  // JPEG-looking frames, each its own bytes: the route must answer the right one.
  for (let k = 0; k < 3; k++) files.set(shareFrameName(k), Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, seed, k, ...bytes(200, k)]));
  for (const [name, b] of Object.entries(extra)) files.set(name, b);
  return files;
}

async function sha256(b: Uint8Array<ArrayBuffer>): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", b))].map((x) => x.toString(16).padStart(2, "0")).join("");
}

interface Upload {
  id: string;
  number: number;
}

async function upload(titleId: string, episode: number | null, files: Map<string, Uint8Array<ArrayBuffer>>): Promise<Upload> {
  const res = await post("/api/admin/uploads", admin.jar, { titleId, episode, source: { name: "clip.mp4", size: 12345, lastModified: 1 } });
  expect(res.status, await res.clone().text()).toBe(200);
  const started = await res.json<Upload>();
  for (const [name, b] of files) {
    const put = await call("PUT", `/api/admin/uploads/${started.id}/objects/${name}`, {
      jar: admin.jar,
      body: b,
      headers: { ...SAME_SITE, "X-Content-SHA256": await sha256(b) },
    });
    expect(put.status, `${name}: ${await put.clone().text()}`).toBe(201);
  }
  return started;
}

const totals = (files: Map<string, Uint8Array<ArrayBuffer>>) => ({ objects: files.size, bytes: [...files.values()].reduce((s, b) => s + b.length, 0) });

function publish(u: Upload, body: Record<string, unknown>): Promise<Response> {
  return post(`/api/admin/uploads/${u.id}/publish`, admin.jar, body);
}

async function entryOf(id: string): Promise<typeof SERIES & { intro?: unknown }> {
  const { text } = await callRead("GET", `/api/admin/titles/${id}`, { jar: admin.jar });
  return (JSON.parse(text) as { entry: typeof SERIES & { intro?: unknown } }).entry;
}

describe("share frames of a browser-packed title", () => {
  it("publishing counts the frames; /share-image/{id}?t= then answers the moment's frame", async () => {
    const files = browserPackage(1);
    const u = await upload(FILM.id, null, files);
    const res = await publish(u, totals(files));
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json<{ objects: number }>()).objects).toBe(files.size);
    for (const [t, k] of [
      [9, 1],
      [24, 2],
      [3, 0],
    ] as const) {
      const image = await call("GET", `/share-image/${FILM.id}?t=${t}`);
      expect(image.status, `t=${t}`).toBe(200);
      expect(image.headers.get("Content-Type")).toBe("image/jpeg");
      expect(new Uint8Array(await image.arrayBuffer())).toEqual(files.get(shareFrameName(k)));
    }
  });
});

describe("片头 / 片尾 of a browser-packed series", () => {
  it("an episode's fingerprint is kept (not served), read back by the next episode's upload, and what that upload found is written at publishing", async () => {
    const codes = Uint32Array.from({ length: 250 }, (_, i) => (i * 2654435761) >>> 0);
    const first = browserPackage(2, { "audio.fp": fingerprintBytes(codes) });
    const u1 = await upload(SERIES.id, null, first);
    const p1 = await publish(u1, totals(first));
    expect(p1.status, await p1.clone().text()).toBe(200);
    expect(await env.MEDIA.head(fingerprintKey(u1.number))).not.toBeNull();
    expect((await call("GET", `/fingerprints/${u1.number}.fp`)).status).toBe(404);

    // A later episode has no cover of its own (the page sends one for the first only).
    const second = browserPackage(3, { "audio.fp": fingerprintBytes(codes.slice(10)) });
    second.delete("cover.webp");
    const u2 = await upload(SERIES.id, 2, second);
    const read = await call("GET", `/api/admin/uploads/${u2.id}/fingerprints/1`, { jar: admin.jar });
    expect(read.status).toBe(200);
    expect(new Uint8Array(await read.arrayBuffer())).toEqual(first.get("audio.fp"));
    // Episode 2 still has the CLI's media (no fingerprint); there is no episode 4.
    const none = await call("GET", `/api/admin/uploads/${u2.id}/fingerprints/2`, { jar: admin.jar });
    expect(none.status).toBe(404);
    expect((await none.json<{ error: { message: string } }>()).error.message).toContain("第2集没有音频指纹");
    expect((await call("GET", `/api/admin/uploads/${u2.id}/fingerprints/4`, { jar: admin.jar })).status).toBe(404);
    expect((await call("GET", `/api/admin/uploads/${u2.id}/fingerprints/x`, { jar: admin.jar })).status).toBe(400);

    const bad = await publish(u2, { ...totals(second), markers: [{ episode: 2, intro: { start: 9, end: 3 }, outro: null }] });
    expect(bad.status).toBe(400);
    expect((await bad.json<{ error: { message: string } }>()).error.message).toBe("找到的片头 / 片尾格式错误");

    const found = [
      { episode: 2, intro: { start: 3, end: 11 }, outro: { start: 19, end: 23 } },
      { episode: 1, intro: { start: 0, end: 8 }, outro: null },
    ];
    const p2 = await publish(u2, { ...totals(second), markers: found });
    expect(p2.status, await p2.clone().text()).toBe(200);
    expect((await p2.json<{ markers: number }>()).markers).toBe(2);
    const entry = await entryOf(SERIES.id);
    expect(entry.intro).toBeUndefined();
    expect(entry.episodes[0]).toMatchObject({ intro: { start: 0, end: 8 } });
    // The operator's 片尾 of episode 2 stays.
    expect(entry.episodes[1]).toMatchObject({ intro: { start: 3, end: 11 }, outro: { start: 20, end: 24 } });
    expect(await env.MEDIA.head(fingerprintKey(u2.number))).not.toBeNull();
  });

  it("an abandoned upload's fingerprint is deleted with its objects", async () => {
    const files = browserPackage(4, { "audio.fp": fingerprintBytes(Uint32Array.from([1, 2, 3])) });
    const u = await upload(SERIES.id, 3, files);
    expect(await env.MEDIA.head(fingerprintKey(u.number))).not.toBeNull();
    const res = await post(`/api/admin/uploads/${u.id}/abandon`, admin.jar);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await env.MEDIA.head(fingerprintKey(u.number))).toBeNull();
  });
});
