// Synthetic packages for the 上传视频 worker tests (worker/admin/media-uploads.ts): bytes under the
// contract's names, as the browser packer (client/admin/packer/pack.ts) sends them — the worker
// checks names, sizes, hashes and references, not pixels — and the calls that send them.
import { expect } from "vitest";
import { writeMasterPlaylist, writeMediaPlaylist, type HlsSubtitleTrack } from "../../../shared/stream/hls";
import { storyboardLayout, spriteName, writeStoryboardVtt } from "../../../shared/stream/storyboard";
import { writeSubtitlePlaylist, writeSubtitlesVtt } from "../../../shared/stream/subtitles";
import { streamNames } from "../../../shared/stream/contract";
import { post, SAME_SITE, type RoleHolder } from "./admin";
import { call } from "./visitor";

const encoder = new TextEncoder();

export type Files = Map<string, Uint8Array<ArrayBuffer>>;

export async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const patterned = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

/**
 * A two-rung package of `seconds` seconds. `subtitles: false` is what the browser packer makes (no
 * subtitle group in the master); true adds a zh-CN track as the CLI's packers write it.
 */
export function fakePackage(seconds: number, o: { subtitles: boolean }): Files {
  const files: Files = new Map();
  const count = Math.ceil(seconds / 2);
  const variants = [270, 360].map((h, r) => {
    const v = `0000000${r}`;
    files.set(streamNames.init(h, v), patterned(700, h));
    const segments = Array.from({ length: count }, (_, i) => {
      const name = streamNames.segment(h, v, i);
      files.set(name, patterned(2000 + i, h + i));
      return { uri: name, duration: Math.min(2, seconds - 2 * i) };
    });
    files.set(streamNames.mediaPlaylist(h), encoder.encode(writeMediaPlaylist({ segments, map: streamNames.init(h, v) })));
    return {
      bandwidth: 100_000 * (r + 1),
      width: (h * 16) / 9,
      height: h,
      codecs: ["avc1.4d401e", "mp4a.40.2"],
      ...(o.subtitles ? { subtitles: "subs" } : {}),
      uri: streamNames.mediaPlaylist(h),
    };
  });
  const subtitles: HlsSubtitleTrack[] = [];
  if (o.subtitles) {
    files.set(streamNames.subtitles, encoder.encode(writeSubtitlesVtt([{ start: 0, end: 1, text: "你好" }], 0)));
    files.set(streamNames.subtitlePlaylist, encoder.encode(writeSubtitlePlaylist(seconds)));
    subtitles.push({ groupId: "subs", name: "中文", language: "zh-CN", isDefault: false, autoselect: true, uri: streamNames.subtitlePlaylist });
  }
  const layout = storyboardLayout(seconds);
  files.set(streamNames.storyboard, encoder.encode(writeStoryboardVtt(layout, spriteName("abcdef01"))));
  files.set(streamNames.sprite("abcdef01", 0), patterned(900, 7));
  files.set(streamNames.master, encoder.encode(writeMasterPlaylist({ variants, subtitles })));
  files.set("video.mp4", patterned(5000, 3));
  files.set("cover.webp", Uint8Array.from([...encoder.encode("RIFF"), 0, 0, 0, 0, ...encoder.encode("WEBPVP8 "), ...patterned(50, 9)]));
  return files;
}

export interface Upload {
  id: string;
  number: number;
}

export async function startUpload(admin: RoleHolder, titleId: string, episode: number | null = null): Promise<Upload> {
  const res = await post("/api/admin/uploads", admin.jar, { titleId, episode, source: { name: "clip.mp4", size: 12345, lastModified: 1 } });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json<Upload>();
}

export async function putObject(admin: RoleHolder, upload: Upload, name: string, bytes: Uint8Array<ArrayBuffer>): Promise<Response> {
  return call("PUT", `/api/admin/uploads/${upload.id}/objects/${name}`, {
    jar: admin.jar,
    body: bytes,
    headers: { ...SAME_SITE, "X-Content-SHA256": await sha256(bytes) },
  });
}

export async function putAll(admin: RoleHolder, upload: Upload, files: Files, skip: ReadonlySet<string> = new Set()): Promise<void> {
  for (const [name, bytes] of files) {
    if (skip.has(name)) continue;
    const res = await putObject(admin, upload, name, bytes);
    expect(res.status, `${name}: ${await res.clone().text()}`).toBe(201);
  }
}

export const totals = (files: Files) => ({ objects: files.size, bytes: [...files.values()].reduce((s, b) => s + b.length, 0) });
