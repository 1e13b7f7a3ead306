/**
 * Sends the packer's objects to PUT /api/admin/uploads/{id}/objects/{name} as they are made
 * (worker/admin/media-uploads.ts), several at a time, each with its SHA-256. An object over its
 * kind's one-request limit (the progressive MP4 of a long film) goes up in parts through
 * /api/admin/uploads/{id}/multipart/{name} (worker/admin/media-multipart.ts): 继续上传 sends only
 * the parts the server does not hold. An object the server already holds with the same size and
 * hash is skipped; a failed request is tried again with growing pauses, so a short network loss
 * costs nothing. `add` resolves once the object has a place in the queue: the packer waits while
 * the queue is full.
 */
import { multipartSha256, needsMultipart, partCount, partSize, MULTIPART_PART_BYTES, uploadObjectKind } from "../../../shared/upload/package";

export interface StoredObject {
  name: string;
  size: number;
  sha256: string;
}

export interface UploadProgress {
  /** Bytes sent in this session (skipped objects not counted). */
  sentBytes: number;
  /** Bytes the server already had (继续上传). */
  skippedBytes: number;
  objects: number;
  bytes: number;
  /** Per rung height: objects done. */
  byRung: Map<number, number>;
}

const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
const sha256Of = async (bytes: Uint8Array<ArrayBuffer>) => hex(await crypto.subtle.digest("SHA-256", bytes));

/** Parts of one object sent at a time. */
const PART_PARALLEL = 2;

export class NetworkLost extends Error {}

export class Uploader {
  readonly progress: UploadProgress = { sentBytes: 0, skippedBytes: 0, objects: 0, bytes: 0, byRung: new Map() };
  private readonly stored: Map<string, StoredObject>;
  private readonly running = new Set<Promise<void>>();
  private failure: Error | null = null;

  constructor(
    private readonly uploadId: string,
    stored: readonly StoredObject[],
    private readonly parallel = 4,
    private readonly onChange: () => void = () => {},
    /** How a request reaches the site (the page's fetch; tests/worker/upload-client-multipart.test.ts hands the worker itself). */
    private readonly transport: (path: string, init: RequestInit) => Promise<Response> = (path, init) => fetch(path, init),
  ) {
    this.stored = new Map(stored.map((o) => [o.name, o]));
  }

  /** Queues an object; resolves when there is room for the next one. */
  async add(name: string, bytes: Uint8Array<ArrayBuffer>, height: number | null, stored = false): Promise<void> {
    this.throwIfFailed();
    const job = this.send(name, bytes, height, stored).catch((error: unknown) => {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
    });
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
    while (this.running.size >= this.parallel) await Promise.race(this.running);
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    const failure = this.failure;
    if (failure) throw failure;
  }

  /** Waits for every queued object. */
  async done(): Promise<void> {
    while (this.running.size > 0) await Promise.race(this.running);
    this.throwIfFailed();
  }

  /** `stored`: the packer knows the server's object under this name is interchangeable (a segment of the same encode setup). */
  private async send(name: string, bytes: Uint8Array<ArrayBuffer>, height: number | null, stored: boolean): Promise<void> {
    const known = this.stored.get(name);
    let size = bytes.length;
    if (known && stored) {
      size = known.size;
      this.progress.skippedBytes += size;
    } else {
      const kind = uploadObjectKind(name);
      const inParts = kind !== null && needsMultipart(kind, bytes.length);
      const parts = inParts ? await Promise.all(Array.from({ length: partCount(bytes.length) }, (_, i) => sha256Of(this.part(bytes, i + 1)))) : [];
      const sha256 = inParts ? await multipartSha256(parts, (data) => crypto.subtle.digest("SHA-256", data)) : await sha256Of(bytes);
      if (known && known.size === bytes.length && known.sha256 === sha256) {
        this.progress.skippedBytes += size;
      } else if (inParts) {
        await this.putInParts(name, bytes, sha256, parts);
      } else {
        await this.put(name, bytes, sha256);
        this.progress.sentBytes += size;
      }
    }
    this.progress.objects++;
    this.progress.bytes += size;
    if (height !== null) this.progress.byRung.set(height, (this.progress.byRung.get(height) ?? 0) + 1);
    this.onChange();
  }

  private part(bytes: Uint8Array<ArrayBuffer>, part: number): Uint8Array<ArrayBuffer> {
    const start = (part - 1) * MULTIPART_PART_BYTES;
    return bytes.subarray(start, start + partSize(bytes.length, part));
  }

  private put(name: string, bytes: Uint8Array<ArrayBuffer>, sha256: string): Promise<Response> {
    return this.request("PUT", `objects/${name}`, name, { body: bytes, sha256 });
  }

  /** An object in parts: the parts the server holds (same SHA-256) are skipped, the rest sent, then completed. */
  private async putInParts(name: string, bytes: Uint8Array<ArrayBuffer>, sha256: string, parts: readonly string[]): Promise<void> {
    const started = await this.request("POST", `multipart/${name}`, name, { json: { size: bytes.length, sha256 } });
    const state = await started.json<{ parts: Array<{ part: number; size: number; sha256: string }> }>();
    const held = new Map(state.parts.map((p) => [p.part, p.sha256]));
    let next = 1;
    const sendParts = async () => {
      for (let part = next++; part <= parts.length; part = next++) {
        const body = this.part(bytes, part);
        if (held.get(part) === parts[part - 1]) {
          this.progress.skippedBytes += body.length;
        } else {
          await this.request("PUT", `multipart/${name}/${part}`, name, { body, sha256: parts[part - 1] });
          this.progress.sentBytes += body.length;
        }
        this.onChange();
      }
    };
    await Promise.all(Array.from({ length: PART_PARALLEL }, sendParts));
    await this.request("POST", `multipart/${name}/complete`, name, { json: {} });
  }

  /** One request of the upload's API, tried again with growing pauses while the network or server fails. */
  private async request(
    method: "PUT" | "POST",
    path: string,
    name: string,
    o: { body: Uint8Array<ArrayBuffer>; sha256: string } | { json: unknown },
  ): Promise<Response> {
    let pause = 500;
    for (let attempt = 1; ; attempt++) {
      let res: Response | null = null;
      try {
        res = await this.transport(`/api/admin/uploads/${this.uploadId}/${path}`, {
          method,
          body: "json" in o ? JSON.stringify(o.json) : o.body,
          headers: "json" in o ? { "Content-Type": "application/json" } : { "X-Content-SHA256": o.sha256 },
          credentials: "same-origin",
        });
      } catch {
        res = null;
      }
      if (res?.ok) return res;
      if (res && res.status < 500 && res.status !== 429) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        throw new Error(`${name}：${body?.error?.message ?? `上传失败（${res.status}）`}`);
      }
      if (attempt >= 8) throw new NetworkLost("网络中断，已上传的部分不会丢失：恢复网络后点 继续上传");
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 8000);
    }
  }
}
