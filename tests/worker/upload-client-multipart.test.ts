// The page's side of 上传视频's parts (client/admin/packer/uploader.ts) against the worker itself
// (worker/admin/media-multipart.ts, local R2): the uploader sends a progressive file over 64 MiB in
// parts; a page killed half way (its requests never answered again) and started anew sends only
// the parts the server does not hold, and the object the server records is the file, byte for byte.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { Uploader } from "../../client/admin/packer/uploader";
import { MULTIPART_PART_BYTES, partCount, UPLOAD_MAX_BYTES } from "../../shared/upload/package";
import { enrolledHolder, post, SAME_SITE, type RoleHolder } from "./helpers/admin";
import { sha256, startUpload } from "./helpers/upload-package";
import { call } from "./helpers/visitor";

const FILM = {
  id: "video_9331",
  title: "分片续传测试电影",
  description: "页面在上传一半时被关闭。",
  category: ["电影"],
  tags: [],
  year: 2025,
  rating: 0,
  duration: "01:00",
  coverImage: "9331.webp",
  videoFile: "9331.mp4",
};

let admin: RoleHolder;

beforeAll(async () => {
  admin = await enrolledHolder("admin", "multipart-client");
  const res = await post("/api/admin/titles", admin.jar, { entry: FILM });
  expect(res.status, await res.clone().text()).toBe(200);
});

/** The page's requests, answered by the worker (the admin's session, from the site's own origin). */
function transport(o: { partsBeforeKill?: number } = {}) {
  let parts = 0;
  const sent: string[] = [];
  const send = async (path: string, init: RequestInit): Promise<Response> => {
    const isPart = init.method === "PUT" && /\/multipart\/[^/]+\/\d+$/.test(path);
    if (isPart && o.partsBeforeKill !== undefined && parts >= o.partsBeforeKill) return new Promise<Response>(() => {});
    if (isPart) parts++;
    sent.push(`${init.method} ${path.replace(/^\/api\/admin\/uploads\/[0-9a-f]+\//, "")}`);
    return call(init.method ?? "GET", path, {
      jar: admin.jar,
      body: init.body as BodyInit,
      headers: { ...SAME_SITE, ...(init.headers as Record<string, string>) },
    });
  };
  return { send, sent };
}

describe("the uploader sends an object over one request's limit in parts", () => {
  it("a page killed half way: the next one sends only the missing parts, and R2 holds the file", async () => {
    const size = UPLOAD_MAX_BYTES.progressive + 5 * 1024 * 1024 + 3;
    const file = new Uint8Array(size);
    for (let part = 1; part <= partCount(size); part++) file.fill(part * 13, (part - 1) * MULTIPART_PART_BYTES, part * MULTIPART_PART_BYTES);
    const upload = await startUpload(admin, FILM.id);

    const killed = transport({ partsBeforeKill: 4 });
    const first = new Uploader(upload.id, [], 4, () => {}, killed.send);
    await first.add("video.mp4", file, null);
    // The page is gone once its fourth part is answered and the next ones hang.
    await expect.poll(() => first.progress.sentBytes, { timeout: 60_000 }).toBe(4 * MULTIPART_PART_BYTES);

    const { objects } = await (await call("GET", `/api/admin/uploads/${upload.id}`, { jar: admin.jar })).json<{ objects: unknown[] }>();
    expect(objects).toEqual([]);
    const again = transport();
    const second = new Uploader(upload.id, [], 4, () => {}, again.send);
    await second.add("video.mp4", file, null);
    await second.done();
    const count = partCount(size);
    expect(second.progress.skippedBytes).toBe(4 * MULTIPART_PART_BYTES);
    expect(second.progress.sentBytes).toBe(size - 4 * MULTIPART_PART_BYTES);
    expect(again.sent.filter((r) => r.startsWith("PUT ")).length).toBe(count - 4);
    expect(again.sent.at(-1)).toBe("POST multipart/video.mp4/complete");
    const stored = await env.MEDIA.get(`${upload.number}.mp4`);
    expect(await sha256(new Uint8Array(await stored!.arrayBuffer()))).toBe(await sha256(file));

    // Once complete, a third page skips the whole object (the server lists it with the same hash).
    const listed = await (
      await call("GET", `/api/admin/uploads/${upload.id}`, { jar: admin.jar })
    ).json<{
      objects: Array<{ name: string; size: number; sha256: string }>;
    }>();
    const third = transport();
    const uploader = new Uploader(upload.id, listed.objects, 4, () => {}, third.send);
    await uploader.add("video.mp4", file, null);
    await uploader.done();
    expect(third.sent).toEqual([]);
    expect(uploader.progress.skippedBytes).toBe(size);
  });
});
