/**
 * The keys of the MEDIA bucket that the catalogue can reference, and what each may hold: the
 * progressive `{n}.mp4`, the cover `{n}.webp` and the stream files `stream/{n}/{name}` of the
 * streaming contract (shared/stream/contract.ts). The worker's upload endpoint (worker/upload/)
 * accepts only these keys and sizes; the deploy plan (scripts/deploy/plan.ts) orders uploads by
 * their stage so that no playlist names a file that is not there yet.
 */
import { MEDIA_NUMBER, STREAM_CONTENT_TYPES, streamFileKind, type StreamFileKind } from "../stream/contract";

export type MediaKeyKind = "progressive" | "cover" | StreamFileKind;

export interface MediaKey {
  key: string;
  /** The media number as written in the key. */
  n: string;
  kind: MediaKeyKind;
  contentType: string;
  /** Largest object of this kind the endpoint accepts. */
  maxBytes: number;
  /** Upload order within one title: 0 immutable parts and the progressive file, 1 media playlists and cues, 2 the master. */
  stage: 0 | 1 | 2;
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** One request body of the upload endpoint: below the Workers request limit (100 MB on every plan). */
export const SINGLE_PUT_MAX_BYTES = 64 * MiB;
/** Parts of a multipart upload (every part but the last has exactly this size; R2's minimum is 5 MiB). */
export const MULTIPART_PART_BYTES = 32 * MiB;
/** R2's limit on parts per upload. */
export const MULTIPART_MAX_PARTS = 10_000;

const LIMITS: Readonly<Record<MediaKeyKind, { maxBytes: number; stage: 0 | 1 | 2 }>> = {
  progressive: { maxBytes: 256 * GiB, stage: 0 },
  cover: { maxBytes: 16 * MiB, stage: 0 },
  init: { maxBytes: 1 * MiB, stage: 0 },
  segment: { maxBytes: 32 * MiB, stage: 0 },
  sprite: { maxBytes: 16 * MiB, stage: 0 },
  frame: { maxBytes: 1 * MiB, stage: 0 },
  "media-playlist": { maxBytes: 8 * MiB, stage: 1 },
  "subtitle-playlist": { maxBytes: 1 * MiB, stage: 1 },
  subtitles: { maxBytes: 16 * MiB, stage: 1 },
  storyboard: { maxBytes: 8 * MiB, stage: 1 },
  master: { maxBytes: 1 * MiB, stage: 2 },
};

const TOP_LEVEL = /^([1-9][0-9]{0,5})\.(mp4|webp)$/;
const STREAM = /^stream\/([^/]+)\/([^/]+)$/;

function make(key: string, n: string, kind: MediaKeyKind): MediaKey {
  const contentType = kind === "progressive" ? "video/mp4" : kind === "cover" ? "image/webp" : STREAM_CONTENT_TYPES[kind];
  return { key, n, kind, contentType, ...LIMITS[kind] };
}

/** The media key, or null when the catalogue can never reference such a key (exact names only, no decoding). */
export function parseMediaKey(key: string): MediaKey | null {
  const top = TOP_LEVEL.exec(key);
  if (top) return make(key, top[1], top[2] === "mp4" ? "progressive" : "cover");
  const stream = STREAM.exec(key);
  if (!stream || !MEDIA_NUMBER.test(stream[1])) return null;
  const kind = streamFileKind(stream[2]);
  return kind ? make(key, stream[1], kind) : null;
}

/** Whether a file of this size must go up in parts (larger than one request may carry). */
export function needsMultipart(size: number): boolean {
  return size > SINGLE_PUT_MAX_BYTES;
}

/** Hex MD5 as the endpoint and the listing carry it: 32 lower-case hex characters. */
export const MD5_HEX = /^[0-9a-f]{32}$/;
