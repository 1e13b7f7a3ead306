/**
 * Runs the media part of a deploy plan (scripts/deploy/plan.ts) against the upload endpoint:
 * stage by stage (segments, then playlists, then masters), several files at once, each failure
 * reported per file. A media number with a failed file gets none of its later-stage files, so no
 * playlist ever names a file that is missing. Re-running resumes: finished files are skipped by
 * the plan (the bucket already holds their bytes), unfinished multipart uploads continue from
 * their saved parts (`statePath`).
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseMediaKey } from "../../shared/deploy/media-keys";
import type { Upload } from "./plan";
import { EndpointError, putMultipart, putObject, type MediaEndpoint, type PartState } from "./endpoint";
import { progressBar, type Progress } from "./progress";

export interface UploadResult {
  uploaded: number;
  bytes: number;
  failed: Array<{ key: string; error: string }>;
  /** Later-stage files not sent because a file of the same title failed. */
  held: string[];
}

export interface UploadOptions {
  concurrency?: number;
  /** Resume state of multipart uploads (JSON); none when omitted. */
  statePath?: string;
  /** Stops starting new files when aborted (the files in flight finish or fail). */
  signal?: AbortSignal;
  progress?: Progress;
  /** Called after each finished file (tests interrupt an upload with it). */
  onFile?: (key: string) => void;
}

async function readState(file: string | undefined): Promise<Record<string, PartState>> {
  if (!file) return {};
  try {
    return JSON.parse(await readFile(file, "utf8")) as Record<string, PartState>;
  } catch {
    return {};
  }
}

export async function uploadMedia(endpoint: MediaEndpoint, uploads: readonly Upload[], options: UploadOptions = {}): Promise<UploadResult> {
  const result: UploadResult = { uploaded: 0, bytes: 0, failed: [], held: [] };
  const total = uploads.reduce((s, u) => s + u.size, 0);
  const progress = options.progress ?? progressBar("upload", uploads.length, total);
  const state = await readState(options.statePath);
  let saving = Promise.resolve();
  const save = (key: string) => async (value: PartState | undefined) => {
    if (value) state[key] = value;
    else delete state[key];
    if (!options.statePath) return;
    const file = options.statePath;
    saving = saving.then(async () => {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(`${file}.tmp`, JSON.stringify(state));
      await rename(`${file}.tmp`, file);
    });
    await saving;
  };
  const failedNumbers = new Set<string>();
  for (const stage of [0, 1, 2] as const) {
    const queue = uploads.filter((u) => u.stage === stage);
    let next = 0;
    const worker = async () => {
      while (next < queue.length && !options.signal?.aborted) {
        const u = queue[next++];
        const n = parseMediaKey(u.key)?.n ?? "";
        if (failedNumbers.has(n)) {
          result.held.push(u.key);
          continue;
        }
        let sent = 0;
        const onBytes = (b: number) => {
          sent += b;
          progress.addBytes(b);
        };
        try {
          // Files in flight finish: an interruption never leaves a request half-sent. A dropped
          // connection or a 5xx is tried again (three times in all); a 4xx is final.
          for (let attempt = 1; ; attempt++) {
            try {
              if (u.multipart) await putMultipart(endpoint, u, state[u.key], save(u.key), onBytes);
              else await putObject(endpoint, u, onBytes);
              break;
            } catch (error) {
              const final = error instanceof EndpointError && error.status < 500;
              if (final || attempt >= 3) throw error;
              progress.addBytes(-sent);
              sent = 0;
              await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
            }
          }
          result.uploaded++;
          result.bytes += u.size;
          progress.addFile();
          options.onFile?.(u.key);
        } catch (error) {
          progress.addBytes(-sent);
          failedNumbers.add(n);
          const message = (error as Error).message;
          result.failed.push({ key: u.key, error: message });
          progress.note(`upload: ${u.key} (${u.file}) failed: ${message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 8, queue.length) }, worker));
    if (options.signal?.aborted) break;
  }
  progress.done();
  return result;
}
