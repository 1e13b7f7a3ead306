/**
 * The deploy plan, computed from listings only (no I/O here): which Cloudflare resources and
 * secrets must be created, and which media objects must be uploaded — those the catalogue
 * references that the bucket lacks or holds with other bytes — in an order where no playlist
 * goes up before the files it names (shared/deploy/media-keys.ts stages).
 */
import type { TitleEntry } from "../../shared/catalogue/schema";
import { parseMediaKey, needsMultipart, type MediaKey } from "../../shared/deploy/media-keys";

/** A media number's files as packed on this machine. */
export interface LocalFile {
  key: string;
  /** Path on disk. */
  file: string;
  size: number;
  /** Hex MD5 of the whole file. */
  md5: string;
  /**
   * What the bucket lists for these bytes once uploaded (shared/deploy/checksum.ts): the MD5, or for
   * a file sent in parts (needsMultipart) R2's multipart ETag.
   */
  checksum: string;
}

export interface RemoteObject {
  size: number;
  /** The checksum the upload endpoint verified (see LocalFile), or null when the bucket cannot tell (then the object is uploaded again). */
  checksum: string | null;
}

export interface Upload extends LocalFile {
  kind: MediaKey["kind"];
  contentType: string;
  stage: 0 | 1 | 2;
  multipart: boolean;
  /** Why: the bucket lacks the key, or holds other bytes under it. */
  reason: "missing" | "changed";
}

export interface MediaPlan {
  /** Every upload, immutable files first, then playlists and cues, masters last. */
  uploads: Upload[];
  uploadBytes: number;
  /** Keys the bucket already holds with the same bytes. */
  unchanged: number;
  unchangedBytes: number;
  /** Referenced media numbers that have no local pack but are in the bucket already (kept as they are). */
  remoteOnly: string[];
  /** Referenced media numbers found neither here nor in the bucket: the site would 404 on them. */
  missing: string[];
  /** Local files that are not media keys (a bug in the packer or a stray file): never uploaded. */
  refused: string[];
}

/** What the catalogue references: per media number, whether its cover `{n}.webp` is referenced too. */
export function referencedMedia(titles: readonly TitleEntry[]): Map<string, { cover: boolean }> {
  const numberOf = (file: string) => file.replace(/^\/+/, "").replace(/\.\w+$/, "");
  const refs = new Map<string, { cover: boolean }>();
  const add = (n: string, cover: boolean) => refs.set(n, { cover: cover || (refs.get(n)?.cover ?? false) });
  for (const title of titles) {
    add(numberOf(title.videoFile), false);
    add(numberOf(title.coverImage), true);
    for (const episode of title.episodes ?? []) add(numberOf(episode.videoFile), false);
  }
  return refs;
}

/**
 * Plans the media upload: for each referenced number, the local pack's files (the cover only when
 * the catalogue names it) compared with the bucket's listing by checksum and size.
 */
export function planMedia(
  references: ReadonlyMap<string, { cover: boolean }>,
  local: ReadonlyMap<string, readonly LocalFile[]>,
  remote: ReadonlyMap<string, RemoteObject>,
): MediaPlan {
  const plan: MediaPlan = { uploads: [], uploadBytes: 0, unchanged: 0, unchangedBytes: 0, remoteOnly: [], missing: [], refused: [] };
  const numbers = [...references.keys()].sort((a, b) => Number(a) - Number(b));
  for (const n of numbers) {
    const files = local.get(n);
    if (!files || files.length === 0) {
      if (remote.has(`stream/${n}/master.m3u8`) && remote.has(`${n}.mp4`)) plan.remoteOnly.push(n);
      else plan.missing.push(n);
      continue;
    }
    for (const f of files) {
      const key = parseMediaKey(f.key);
      if (!key || key.n !== n) {
        plan.refused.push(f.key);
        continue;
      }
      if (key.kind === "cover" && !references.get(n)?.cover) continue;
      const there = remote.get(f.key);
      if (there && there.checksum === f.checksum && there.size === f.size) {
        plan.unchanged++;
        plan.unchangedBytes += f.size;
        continue;
      }
      plan.uploads.push({
        ...f,
        kind: key.kind,
        contentType: key.contentType,
        stage: key.stage,
        multipart: needsMultipart(f.size),
        reason: there ? "changed" : "missing",
      });
      plan.uploadBytes += f.size;
    }
  }
  // Stable: by stage, then as listed (numbers ascending, files in pack order).
  plan.uploads = plan.uploads
    .map((u, i) => ({ u, i }))
    .sort((a, b) => a.u.stage - b.u.stage || a.i - b.i)
    .map(({ u }) => u);
  return plan;
}

/** What deploy provisions and which secrets it makes sure exist. */
export interface Wanted {
  bucket: string;
  database: string;
  /** Secrets generated at random when missing (never rotated when present). */
  secrets: readonly string[];
}

/** What the account holds, as listed by wrangler; null when unknown (an offline dry run). */
export interface Existing {
  buckets: readonly string[];
  databases: readonly string[];
  /** The worker's secret names (empty when the worker does not exist yet). */
  secrets: readonly string[];
}

export type Action = { kind: "create-bucket"; name: string } | { kind: "create-database"; name: string } | { kind: "put-secret"; name: string };

/** The resources and secrets to create; with `existing` unknown, everything that would be created if missing. */
export function planResources(wanted: Wanted, existing: Existing | null): Action[] {
  const actions: Action[] = [];
  if (!existing?.buckets.includes(wanted.bucket)) actions.push({ kind: "create-bucket", name: wanted.bucket });
  if (!existing?.databases.includes(wanted.database)) actions.push({ kind: "create-database", name: wanted.database });
  for (const name of wanted.secrets) if (!existing?.secrets.includes(name)) actions.push({ kind: "put-secret", name });
  return actions;
}

export function describeAction(action: Action): string {
  switch (action.kind) {
    case "create-bucket":
      return `create R2 bucket ${action.name}`;
    case "create-database":
      return `create D1 database ${action.name}`;
    case "put-secret":
      return `set secret ${action.name} (random)`;
  }
}
