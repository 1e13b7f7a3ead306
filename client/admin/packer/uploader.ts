/**
 * Sends the packer's objects to PUT /api/admin/uploads/{id}/objects/{name} as they are made
 * (worker/admin/media-uploads.ts), several at a time, each with its SHA-256. An object the server
 * already holds with the same size and hash (继续上传) is skipped; a failed request is tried again
 * with growing pauses, so a short network loss costs nothing. `add` resolves once the object has a
 * place in the queue: the packer waits while the queue is full.
 */
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
      const sha256 = hex(await crypto.subtle.digest("SHA-256", bytes));
      if (known && known.size === bytes.length && known.sha256 === sha256) {
        this.progress.skippedBytes += size;
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

  private async put(name: string, bytes: Uint8Array<ArrayBuffer>, sha256: string): Promise<void> {
    let pause = 500;
    for (let attempt = 1; ; attempt++) {
      let res: Response | null = null;
      try {
        res = await fetch(`/api/admin/uploads/${this.uploadId}/objects/${name}`, {
          method: "PUT",
          body: bytes,
          headers: { "X-Content-SHA256": sha256 },
          credentials: "same-origin",
        });
      } catch {
        res = null;
      }
      if (res?.ok) return;
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
