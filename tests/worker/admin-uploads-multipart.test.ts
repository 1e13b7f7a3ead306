// 上传视频's objects over one request's limit (worker/admin/media-multipart.ts,
// docs/decisions/0084-multipart-upload.md) against local R2: a progressive MP4 over 64 MiB (built
// here from repeated bytes, one value per part) goes up in parts; a page that stops half way and
// starts again gets the parts already there and sends only the rest; completion records the object
// like a single PUT and the package publishes; parts that are not the declared file are never
// assembled; a part of other bytes than its SHA-256 or of the
// wrong size is refused and never counted; 放弃上传 aborts the open multipart upload.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { MULTIPART_PART_BYTES, multipartSha256, partCount, partSize, UPLOAD_MAX_BYTES } from "../../shared/upload/package";
import { enrolledHolder, post, SAME_SITE, type RoleHolder } from "./helpers/admin";
import { fakePackage, putAll, putObject, sha256, startUpload, totals, type Upload } from "./helpers/upload-package";
import { call } from "./helpers/visitor";

const FILM = {
  id: "video_9321",
  title: "分片上传测试电影",
  description: "超过 64 MB 的兼容 MP4。",
  category: ["电影"],
  tags: [],
  year: 2025,
  rating: 0,
  duration: "01:00",
  coverImage: "9321.webp",
  videoFile: "9321.mp4",
};

let admin: RoleHolder;

beforeAll(async () => {
  admin = await enrolledHolder("admin", "multipart");
  const res = await post("/api/admin/titles", admin.jar, { entry: FILM });
  expect(res.status, await res.clone().text()).toBe(200);
});

/** A progressive file just over the one-request limit: part k is k repeated, the last part short. */
function largeFile(): Uint8Array<ArrayBuffer> {
  const size = UPLOAD_MAX_BYTES.progressive + 3 * 1024 * 1024 + 17;
  const bytes = new Uint8Array(size);
  for (let part = 1; part <= partCount(size); part++) {
    const at = (part - 1) * MULTIPART_PART_BYTES;
    bytes.fill(part, at, at + partSize(size, part));
  }
  return bytes;
}

const partOf = (bytes: Uint8Array<ArrayBuffer>, part: number) =>
  bytes.slice((part - 1) * MULTIPART_PART_BYTES, (part - 1) * MULTIPART_PART_BYTES + partSize(bytes.length, part));

/** The hash an object sent in parts is known by (over its parts' SHA-256s). */
const partsHash = async (bytes: Uint8Array<ArrayBuffer>) =>
  multipartSha256(await Promise.all(Array.from({ length: partCount(bytes.length) }, (_, i) => sha256(partOf(bytes, i + 1)))), (data) =>
    crypto.subtle.digest("SHA-256", data),
  );

interface State {
  parts: Array<{ part: number; size: number; sha256: string }>;
  partBytes: number;
}

async function begin(upload: Upload, name: string, size: number, hash: string): Promise<Response> {
  return post(`/api/admin/uploads/${upload.id}/multipart/${name}`, admin.jar, { size, sha256: hash });
}

async function putPart(upload: Upload, part: number, bytes: Uint8Array<ArrayBuffer>, hash?: string): Promise<Response> {
  return call("PUT", `/api/admin/uploads/${upload.id}/multipart/video.mp4/${part}`, {
    jar: admin.jar,
    body: bytes,
    headers: { ...SAME_SITE, "X-Content-SHA256": hash ?? (await sha256(bytes)) },
  });
}

const complete = (upload: Upload) => post(`/api/admin/uploads/${upload.id}/multipart/video.mp4/complete`, admin.jar);

async function r2Sha256(key: string): Promise<string | null> {
  const object = await env.MEDIA.get(key);
  if (!object) return null;
  return sha256(new Uint8Array(await object.arrayBuffer()));
}

describe("an object over one request's limit goes up in parts", () => {
  it("a 67 MiB progressive file: refused in one request, sent in parts, resumed half way with only the missing parts, completed and published", async () => {
    const big = largeFile();
    const hash = await partsHash(big);
    const count = partCount(big.length);
    expect(count).toBeGreaterThan(8);
    const upload = await startUpload(admin, FILM.id);
    const single = await putObject(admin, upload, "video.mp4", big);
    expect(single.status).toBe(413);

    const first = await begin(upload, "video.mp4", big.length, hash);
    expect(first.status, await first.clone().text()).toBe(200);
    expect(await first.json<State>()).toMatchObject({ parts: [], partBytes: MULTIPART_PART_BYTES });
    const half = Math.floor(count / 2);
    for (let part = 1; part <= half; part++) {
      const res = await putPart(upload, part, partOf(big, part));
      expect(res.status, `part ${part}: ${await res.clone().text()}`).toBe(201);
    }
    // Completing before every part is there names what is missing.
    const early = await complete(upload);
    expect(early.status).toBe(409);
    expect((await early.json<{ error: { code: string; message: string } }>()).error.message).toContain(`第 ${half + 1}`);

    // The page was closed: starting again with the same file gets the parts R2 holds.
    const again = await begin(upload, "video.mp4", big.length, hash);
    const state = await again.json<State>();
    expect(state.parts.map((p) => p.part)).toEqual(Array.from({ length: half }, (_, i) => i + 1));
    expect(state.parts[0]).toEqual({ part: 1, size: MULTIPART_PART_BYTES, sha256: await sha256(partOf(big, 1)) });
    for (let part = half + 1; part <= count; part++) {
      const res = await putPart(upload, part, partOf(big, part));
      expect(res.status, `part ${part}: ${await res.clone().text()}`).toBe(201);
    }
    const done = await complete(upload);
    expect(done.status, await done.clone().text()).toBe(201);
    expect(await done.json()).toEqual({ name: "video.mp4", size: big.length, sha256: hash });
    expect(await r2Sha256(`${upload.number}.mp4`)).toBe(await sha256(big));
    const detail = await (await call("GET", `/api/admin/uploads/${upload.id}`, { jar: admin.jar })).json<{ objects: Array<{ name: string; size: number }> }>();
    expect(detail.objects.find((o) => o.name === "video.mp4")).toEqual({ name: "video.mp4", size: big.length, sha256: hash });

    const files = fakePackage(3, { subtitles: false });
    files.delete("video.mp4");
    await putAll(admin, upload, files);
    files.set("video.mp4", big);
    const published = await post(`/api/admin/uploads/${upload.id}/publish`, admin.jar, totals(files));
    expect(published.status, await published.clone().text()).toBe(200);
    const served = await call("GET", `/${upload.number}.mp4`, { headers: { Range: "bytes=0-0" } });
    expect(served.status).toBe(206);
    expect(served.headers.get("Content-Range")).toBe(`bytes 0-0/${big.length}`);
    await served.arrayBuffer();
  });

  it("a part of other bytes than its SHA-256, of the wrong size or number is refused and not counted; another file restarts the parts", async () => {
    const upload = await startUpload(admin, FILM.id);
    const size = MULTIPART_PART_BYTES + 1000;
    const bytes = new Uint8Array(size).fill(7);
    const hash = await partsHash(bytes);
    expect((await putPart(upload, 1, partOf(bytes, 1))).status).toBe(409);
    expect((await begin(upload, "video.mp4", size, hash)).status).toBe(200);
    const wrongHash = await putPart(upload, 1, partOf(bytes, 1), await sha256(new Uint8Array(10)));
    expect(wrongHash.status).toBe(400);
    expect((await wrongHash.json<{ error: { message: string } }>()).error.message).toContain("X-Content-SHA256");
    const wrongSize = await putPart(upload, 1, bytes.slice(0, 1000));
    expect(wrongSize.status).toBe(400);
    expect((await wrongSize.json<{ error: { message: string } }>()).error.message).toMatch(/第 1 片应为 \d+ 字节/);
    expect((await putPart(upload, 3, partOf(bytes, 2))).status).toBe(400);
    await expect((await begin(upload, "video.mp4", size, hash)).json()).resolves.toMatchObject({ parts: [] });
    expect((await putPart(upload, 2, partOf(bytes, 2))).status).toBe(201);
    expect((await (await begin(upload, "video.mp4", size, hash)).json<State>()).parts.map((p) => p.part)).toEqual([2]);
    // Parts that are not the declared file (a page that mixed two runs): nothing is assembled, the parts go.
    expect((await putPart(upload, 1, new Uint8Array(MULTIPART_PART_BYTES).fill(9))).status).toBe(201);
    const mixed = await complete(upload);
    expect(mixed.status).toBe(409);
    expect((await mixed.json<{ error: { code: string } }>()).error.code).toBe("bad_checksum");
    expect(await env.MEDIA.head(`${upload.number}.mp4`)).toBeNull();
    expect((await (await begin(upload, "video.mp4", size, hash)).json<State>()).parts).toEqual([]);
    // Another file under the same name (another encoder run): a new multipart upload, no parts.
    const other = await begin(upload, "video.mp4", size, await sha256(new Uint8Array(size).fill(8)));
    expect((await other.json<State>()).parts).toEqual([]);
    // Only objects that may be large go in parts.
    const playlist = await begin(upload, "master.m3u8", 10, hash);
    expect(playlist.status).toBe(400);
    expect((await playlist.json<{ error: { message: string } }>()).error.message).toMatch(/[\u4e00-\u9fff]/);
  });

  it("放弃上传 aborts the open multipart upload and forgets its parts", async () => {
    const upload = await startUpload(admin, FILM.id);
    const size = MULTIPART_PART_BYTES * 2;
    const bytes = new Uint8Array(size).fill(5);
    expect((await begin(upload, "video.mp4", size, await partsHash(bytes))).status).toBe(200);
    expect((await putPart(upload, 1, partOf(bytes, 1))).status).toBe(201);
    const open = await env.DB.prepare("SELECT r2_upload_id FROM media_upload_multiparts WHERE upload_id = ?").bind(upload.id).first<{ r2_upload_id: string }>();
    expect(open).not.toBeNull();
    const res = await post(`/api/admin/uploads/${upload.id}/abandon`, admin.jar);
    expect(res.status, await res.clone().text()).toBe(200);
    // R2 no longer takes parts for it: the multipart upload was aborted.
    await expect(env.MEDIA.resumeMultipartUpload(`${upload.number}.mp4`, open!.r2_upload_id).uploadPart(2, partOf(bytes, 2))).rejects.toThrow();
    const rows = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM media_upload_multiparts WHERE upload_id = ?1) + (SELECT count(*) FROM media_upload_parts WHERE upload_id = ?1) AS n",
    )
      .bind(upload.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
    expect(await env.MEDIA.head(`${upload.number}.mp4`)).toBeNull();
    expect((await begin(upload, "video.mp4", size, await partsHash(bytes))).status).toBe(409);
  });
});
