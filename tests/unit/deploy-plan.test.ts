import { describe, expect, it } from "vitest";
import type { TitleEntry } from "../../shared/catalogue/schema";
import { parseMediaKey, SINGLE_PUT_MAX_BYTES } from "../../shared/deploy/media-keys";
import { planMedia, planResources, referencedMedia, type LocalFile, type RemoteObject } from "../../scripts/deploy/plan";
import { parseBucketList, parseDeployUrls, parseJsonOutput } from "../../scripts/deploy/wrangler";

/** The deploy plan from listings: what to create, what to upload and in which order. */

const title = (n: number, episodes: number[] = []): TitleEntry => ({
  id: `video_${String(n).padStart(3, "0")}`,
  title: `片${n}`,
  description: "简介",
  category: ["电影"],
  tags: [],
  year: 2025,
  rating: 8,
  duration: "01:00:00",
  coverImage: `${n}.webp`,
  videoFile: `/${n}.mp4`,
  ...(episodes.length > 0
    ? { episodes: [{ videoFile: `${n}.mp4`, duration: "45:00" }, ...episodes.map((e) => ({ videoFile: `${e}.mp4`, duration: "45:00" }))] }
    : {}),
});

/** A pack's files as the local listing gives them (md5 derived from the key and a version; single puts, so the checksum is the MD5). */
function pack(n: number, version = "a", extra: Partial<Record<string, number>> = {}): LocalFile[] {
  const names = ["360p-0123abcd-init.mp4", "360p-0123abcd-00000.m4s", "360p-0123abcd-00001.m4s", "360p.m3u8", "subtitles-zh-CN.vtt", "master.m3u8"];
  const keys = [`${n}.mp4`, `${n}.webp`, ...names.map((name) => `stream/${n}/${name}`)];
  return keys.map((key) => {
    const md5 = (version + key)
      .padEnd(32, "0")
      .slice(0, 32)
      .replace(/[^0-9a-f]/g, "0");
    return { key, file: `/cache/${key}`, size: extra[key] ?? 1000, md5, checksum: md5 };
  });
}

const asRemote = (files: LocalFile[]): Map<string, RemoteObject> => new Map(files.map((f) => [f.key, { size: f.size, checksum: f.checksum }]));

describe("referencedMedia", () => {
  it("lists every title's and episode's media number; covers only where the catalogue names one", () => {
    const refs = referencedMedia([title(1), title(3, [10302, 10303])]);
    expect([...refs.entries()]).toEqual([
      ["1", { cover: true }],
      ["3", { cover: true }],
      ["10302", { cover: false }],
      ["10303", { cover: false }],
    ]);
  });
});

describe("planMedia", () => {
  const refs = referencedMedia([title(1), title(2)]);
  const local = new Map([
    ["1", pack(1)],
    ["2", pack(2)],
  ]);

  it("uploads everything to an empty bucket: segments first, then media playlists and cues, masters last", () => {
    const plan = planMedia(refs, local, new Map());
    expect(plan.uploads).toHaveLength(16);
    expect(plan.uploadBytes).toBe(16_000);
    const stages = plan.uploads.map((u) => u.stage);
    expect(stages).toEqual([...stages].sort());
    const lastSegment = Math.max(...plan.uploads.map((u, i) => (u.kind === "segment" || u.kind === "init" ? i : -1)));
    const firstPlaylist = plan.uploads.findIndex((u) => u.kind.endsWith("playlist") || u.kind === "master");
    expect(lastSegment).toBeLessThan(firstPlaylist);
    expect(plan.uploads.slice(-2).map((u) => u.key)).toEqual(["stream/1/master.m3u8", "stream/2/master.m3u8"]);
    expect(plan.uploads.every((u) => u.reason === "missing")).toBe(true);
  });

  it("uploads nothing when the bucket holds the same bytes", () => {
    const plan = planMedia(refs, local, asRemote([...pack(1), ...pack(2)]));
    expect(plan.uploads).toEqual([]);
    expect(plan.unchanged).toBe(16);
  });

  it("re-uploads a changed file (other checksum or size) and nothing else", () => {
    const remote = asRemote([...pack(1), ...pack(2)]);
    remote.set("stream/2/360p.m3u8", { size: 1000, checksum: "f".repeat(32) });
    remote.set("2.mp4", { size: 999, checksum: pack(2).find((f) => f.key === "2.mp4")!.checksum });
    const plan = planMedia(refs, local, remote);
    expect(plan.uploads.map((u) => [u.key, u.reason])).toEqual([
      ["2.mp4", "changed"],
      ["stream/2/360p.m3u8", "changed"],
    ]);
  });

  it("uploads again what the bucket cannot vouch for (no checksum)", () => {
    const remote = asRemote(pack(1));
    remote.set("1.mp4", { size: 1000, checksum: null });
    expect(planMedia(new Map([["1", { cover: true }]]), local, remote).uploads.map((u) => u.key)).toEqual(["1.mp4"]);
  });

  it("skips files the catalogue does not reference: unreferenced packs and episode covers", () => {
    const plan = planMedia(new Map([["10302", { cover: false }]]), new Map([["10302", pack(10302)], ...local]), new Map());
    expect(plan.uploads.some((u) => u.key === "10302.webp")).toBe(false);
    expect(plan.uploads.every((u) => u.key.includes("10302"))).toBe(true);
  });

  it("keeps numbers only in the bucket and reports numbers found nowhere", () => {
    const plan = planMedia(referencedMedia([title(1), title(4), title(5)]), local, asRemote(pack(4)));
    expect(plan.remoteOnly).toEqual(["4"]);
    expect(plan.missing).toEqual(["5"]);
  });

  it("never uploads a local file that is not a media key of its number", () => {
    const odd = [
      ...pack(1),
      { key: "stream/1/notes.txt", file: "/x", size: 1, md5: "0".repeat(32), checksum: "0".repeat(32) },
      { key: "stream/2/master.m3u8", file: "/y", size: 1, md5: "0".repeat(32), checksum: "0".repeat(32) },
    ];
    const plan = planMedia(new Map([["1", { cover: true }]]), new Map([["1", odd]]), new Map());
    expect(plan.refused).toEqual(["stream/1/notes.txt", "stream/2/master.m3u8"]);
    expect(plan.uploads).toHaveLength(8);
  });

  it("sends files larger than one request in parts", () => {
    const big = pack(1, "a", { "1.mp4": SINGLE_PUT_MAX_BYTES + 1 });
    const plan = planMedia(new Map([["1", { cover: true }]]), new Map([["1", big]]), new Map());
    expect(plan.uploads.filter((u) => u.multipart).map((u) => u.key)).toEqual(["1.mp4"]);
  });
});

describe("planResources", () => {
  const wanted = { bucket: "yingshi-media", database: "yingshi-accounts", secrets: ["AUTH_JWT_SECRET", "MEDIA_UPLOAD_TOKEN"] };

  it("creates everything on a fresh account", () => {
    expect(planResources(wanted, { buckets: [], databases: ["other"], secrets: [] }).map((a) => `${a.kind} ${a.name}`)).toEqual([
      "create-bucket yingshi-media",
      "create-database yingshi-accounts",
      "put-secret AUTH_JWT_SECRET",
      "put-secret MEDIA_UPLOAD_TOKEN",
    ]);
  });

  it("creates nothing and rotates no secret when everything exists", () => {
    expect(
      planResources(wanted, { buckets: ["yingshi-media"], databases: ["yingshi-accounts"], secrets: ["MEDIA_UPLOAD_TOKEN", "AUTH_JWT_SECRET", "X"] }),
    ).toEqual([]);
  });

  it("only what is missing", () => {
    expect(planResources(wanted, { buckets: ["yingshi-media"], databases: [], secrets: ["AUTH_JWT_SECRET"] }).map((a) => a.kind)).toEqual([
      "create-database",
      "put-secret",
    ]);
  });
});

describe("media keys", () => {
  it.each([
    ["12.mp4", "progressive"],
    ["12.webp", "cover"],
    ["stream/12/master.m3u8", "master"],
    ["stream/12/720p-0123abcd-00009.m4s", "segment"],
    ["stream/10302/sb-0123abcd-0.jpg", "sprite"],
  ])("%s is a %s", (key, kind) => {
    expect(parseMediaKey(key)?.kind).toBe(kind);
  });

  it.each(["012.mp4", "12.MP4", "stream/12/../1.mp4", "stream/12/x/master.m3u8", "stream/1234567/master.m3u8", "titles.json", "", "stream/12/"])(
    "%j is not a media key",
    (key) => {
      expect(parseMediaKey(key)).toBeNull();
    },
  );
});

describe("wrangler output", () => {
  it("bucket names from `r2 bucket list`", () => {
    expect(
      parseBucketList(
        "Listing buckets...\nname:           yingshi-media\ncreation_date:  2026-01-01T00:00:00.000Z\n\nname:           other\ncreation_date:  x\n",
      ),
    ).toEqual(["yingshi-media", "other"]);
  });

  it("the workers.dev URL first from `wrangler deploy`", () => {
    const out =
      "Uploaded yingshi (3.1 sec)\nDeployed yingshi triggers (0.5 sec)\n  tv.example.com (custom domain)\n  https://yingshi.someone.workers.dev\nCurrent Version ID: x";
    expect(parseDeployUrls(out)).toEqual(["https://yingshi.someone.workers.dev"]);
  });

  it("JSON after a banner", () => {
    expect(parseJsonOutput('\n ⛅️ wrangler 4.86.0\n───\n[\n  { "name": "a", "uuid": "u" }\n]\n')).toEqual([{ name: "a", uuid: "u" }]);
  });
});
