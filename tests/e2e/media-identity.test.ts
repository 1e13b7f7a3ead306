import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { videos } from "../../scripts/catalogue/titles";
import { uploadsOf } from "../../scripts/media/seed";
import { catalogueMedia, TITLES_DIR } from "../../scripts/media/titles";
import { baseURL } from "./browser";

/**
 * The site serves each title the media it asked for. The e2e site packs two clips (MEDIA_SHARED=1,
 * tests/e2e/site-env.ts): the first title's and the first other episode's, and copies them to the
 * other media numbers. Those two differ (another label burnt in, another length and ladder): the
 * film's and the episode's media numbers must each serve their own pack, byte for byte, through
 * every file a player or the download link fetches.
 */
const all = catalogueMedia(videos.length);
const film = all.find((m) => m.episode === 1)!;
const episode = all.find((m) => m.episode > 1)!;

/** Every file of media number n as packed (the key the site serves it under, and its bytes). */
async function packOf(n: number): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const upload of await uploadsOf(n, path.join(TITLES_DIR, String(n)))) files.set(upload.key, await readFile(upload.file));
  return files;
}

async function served(key: string): Promise<Buffer> {
  const res = await fetch(`${baseURL()}/${key}`);
  expect(res.status, key).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe("the media served belong to the title asked for", () => {
  it("the film's and the episode's media numbers serve their own packs, and those differ", async () => {
    const [filmPack, episodePack] = [await packOf(film.n), await packOf(episode.n)];
    for (const pack of [filmPack, episodePack]) {
      for (const [key, bytes] of pack) expect((await served(key)).equals(bytes), key).toBe(true);
    }
    // The two packs are not the same media under two names.
    const progressive = (pack: Map<string, Buffer>, n: number) => pack.get(`${n}.mp4`)!;
    expect(progressive(filmPack, film.n).equals(progressive(episodePack, episode.n))).toBe(false);
    expect((await served(`${film.n}.mp4`)).equals(await served(`${episode.n}.mp4`))).toBe(false);
  });

  it("the film's and the episode's pages play their own media numbers", async () => {
    const filmVideo = videos.find((v) => v.id === film.id)!;
    const filmPage = await (await fetch(`${baseURL()}/video/${filmVideo.id}`)).text();
    expect(filmPage).toContain(`/stream/${film.n}/master.m3u8`);
    expect(filmPage).not.toContain(`/stream/${episode.n}/`);
    const episodePage = await (await fetch(`${baseURL()}/video/${episode.id}/${episode.episode}`)).text();
    expect(episodePage).toContain(`/stream/${episode.n}/master.m3u8`);
  });
});
