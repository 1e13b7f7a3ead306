/**
 * The link-preview frames of the browser packer (docs/decisions/0098-share-frame.md,
 * docs/decisions/0103-browser-share-frames.md): as the CLI's scripts/media/previews.ts, one
 * SHARE_FRAME_WIDTH-wide JPEG every SHARE_FRAME_INTERVAL s, frame k the source frame at k × interval,
 * named by shared/stream/share-frames.ts. ./pack.ts hands it every decoded frame as it passes.
 */
import type { VideoSample } from "mediabunny";
import { SHARE_FRAME_INTERVAL, SHARE_FRAME_WIDTH, shareFrameCount, shareFrameName } from "../../../shared/stream/share-frames";
import type { PackedObject } from "./pack";

/** ffmpeg's `-q:v 4` is about this quality in the browser's JPEG encoder. */
const JPEG_QUALITY = 0.85;

export class ShareFrameWriter {
  private next = 0;
  private readonly count: number;
  private readonly canvas: OffscreenCanvas;
  private readonly context: OffscreenCanvasRenderingContext2D;
  private readonly jobs: Array<Promise<void>> = [];

  constructor(
    duration: number,
    width: number,
    height: number,
    private readonly emit: (object: PackedObject) => Promise<void>,
  ) {
    this.count = shareFrameCount(duration);
    // As ffmpeg's scale=640:-2: the height kept in proportion, rounded to an even number.
    const scaledHeight = Math.max(2, Math.round((SHARE_FRAME_WIDTH * height) / width / 2) * 2);
    this.canvas = new OffscreenCanvas(SHARE_FRAME_WIDTH, scaledHeight);
    this.context = this.canvas.getContext("2d")!;
  }

  /** A decoded frame at `t` s (`fps` to find the frame nearest each k × interval, as the storyboard's tiles). */
  offer(sample: VideoSample, t: number, fps: number): void {
    if (this.next >= this.count || t + 0.5 / fps < this.next * SHARE_FRAME_INTERVAL) return;
    const k = this.next;
    while (this.next < this.count && t + 0.5 / fps >= this.next * SHARE_FRAME_INTERVAL) this.next++;
    sample.draw(this.context, 0, 0, this.canvas.width, this.canvas.height);
    const blob = this.canvas.convertToBlob({ type: "image/jpeg", quality: JPEG_QUALITY });
    this.jobs.push(blob.then(async (b) => this.emit({ name: shareFrameName(k), bytes: new Uint8Array(await b.arrayBuffer()), height: null })));
  }

  /** Resolves when every frame offered so far has been emitted. */
  async done(): Promise<void> {
    await Promise.all(this.jobs);
  }
}
