/**
 * The Web Worker of 上传视频 (client/admin/video-upload.ts starts it): probing, packing
 * (./pack.ts) and uploading (./uploader.ts) run here, off the page's main thread, as one pipeline;
 * the page gets progress messages and shows them. A series' episode is then fingerprinted and
 * matched with its neighbours for 片头 / 片尾 (./audio-fingerprint.ts).
 */
import { fingerprintBytes } from "../../../shared/media/mono-pcm";
import type { EpisodeFound } from "../../../shared/media/series-markers";
import { FINGERPRINT_NAME } from "../../../shared/upload/package";
import { audioFingerprint, markersWithNeighbours } from "./audio-fingerprint";
import { packFile, probeFile } from "./pack";
import { Uploader, type StoredObject } from "./uploader";

export type WorkerRequest =
  | { kind: "probe"; file: File }
  | {
      kind: "pack";
      file: File;
      uploadId: string;
      stored: StoredObject[];
      coverTime: number | null;
      parallel: number;
      /** The episode (1-based) of a series, whose 片头 / 片尾 are looked for (docs/decisions/0099-browser-intro-detection.md); null: a film. */
      seriesEpisode: number | null;
    };

export type WorkerMessage =
  | { kind: "probe"; probe: Awaited<ReturnType<typeof probeFile>> }
  | { kind: "progress"; packedSeconds: number; sentBytes: number; skippedBytes: number; objects: number; bytes: number; byRung: Array<[number, number]> }
  | { kind: "done"; objects: number; bytes: number; sentBytes: number; skippedBytes: number; markers: EpisodeFound[] }
  | { kind: "error"; message: string };

const post = (message: WorkerMessage) => (self as unknown as Worker).postMessage(message);

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  try {
    const probe = await probeFile(request.file);
    if (request.kind === "probe") {
      post({ kind: "probe", probe });
      return;
    }
    if (probe.problem) throw new Error(probe.problem);
    let packedSeconds = 0;
    const report = () =>
      post({
        kind: "progress",
        packedSeconds,
        sentBytes: uploader.progress.sentBytes,
        skippedBytes: uploader.progress.skippedBytes,
        objects: uploader.progress.objects,
        bytes: uploader.progress.bytes,
        byRung: [...uploader.progress.byRung],
      });
    const uploader = new Uploader(request.uploadId, request.stored, request.parallel, report);
    await packFile(request.file, probe, {
      uploadId: request.uploadId,
      stored: new Map(request.stored.map((x) => [x.name, x])),
      coverTime: request.coverTime,
      emit: (o) => uploader.add(o.name, o.bytes, o.height, o.stored),
      onProgress: (seconds) => {
        packedSeconds = seconds;
        report();
      },
    });
    // A series' episode: its audio fingerprint is kept with its media, and matched with its neighbours'.
    let markers: EpisodeFound[] = [];
    if (request.seriesEpisode !== null) {
      const own = await audioFingerprint(request.file);
      await uploader.add(FINGERPRINT_NAME, fingerprintBytes(own), null);
      markers = await markersWithNeighbours(request.uploadId, request.seriesEpisode, own);
    }
    await uploader.done();
    const p = uploader.progress;
    post({ kind: "done", objects: p.objects, bytes: p.bytes, sentBytes: p.sentBytes, skippedBytes: p.skippedBytes, markers });
  } catch (error) {
    post({ kind: "error", message: error instanceof Error ? error.message : String(error) });
  }
};
