/**
 * The browser packer (docs/decisions/0081-browser-packer.md): one source file → the streaming
 * contract of docs/streaming.md, the same as the CLI's scripts/media/pack.ts makes — the shared
 * ladder (shared/stream/ladder.ts, never upscaled), 2 s segments with key frames at the same frames
 * in every rung (frame index a multiple of round(fps × 2), like x264's fixed GOP), fMP4 with an init
 * segment for #EXT-X-MAP, the master's attributes measured from the segments, storyboard sheets and
 * cues, the progressive MP4 (the highest rung ≤ 720p, remuxed), a cover from the chosen time and the
 * link-preview frames (./share-frames.ts). The audio (./audio.ts): AAC copied, other audio or
 * silence encoded to AAC-LC at the rungs' bitrates (docs/decisions/0082-browser-upload-audio.md).
 *
 * mediabunny demuxes the source and muxes every output; WebCodecs decodes and encodes. Every object
 * is handed to `emit` as soon as it is complete (a segment the moment its fragment closes), and
 * emit's promise is the backpressure: packing waits while the upload queue is full.
 */
import {
  ALL_FORMATS,
  BlobSource,
  EncodedAudioPacketSource,
  EncodedVideoPacketSource,
  Input,
  Mp4OutputFormat,
  NullTarget,
  BufferTarget,
  Output,
  VideoSample,
  VideoSampleSink,
  VideoSampleSource,
  type EncodedPacket,
} from "mediabunny";
import { writeMasterPlaylist, writeMediaPlaylist, type HlsVariant } from "../../../shared/stream/hls";
import { laddersFor, lightStartRung, lightStartSeconds, type Rung } from "../../../shared/stream/ladder";
import { streamNames } from "../../../shared/stream/contract";
import { withoutMovieTimes } from "../../../shared/stream/movie-times";
import { spriteName, storyboardLayout, tileCount, tilePosition, writeStoryboardVtt } from "../../../shared/stream/storyboard";
import { audioPlan, audioPlanText, type AudioPlan } from "../../../shared/upload/audio";
import { COVER_NAME, PROGRESSIVE_NAME } from "../../../shared/upload/package";
import { audioFeed, type AudioTarget } from "./audio";
import { ShareFrameWriter } from "./share-frames";

/** Segment (and GOP) length, as the CLI's DEFAULT_ENCODE. */
export const SEGMENT_SECONDS = 2;
/** How much earlier than the video the audio ends (scripts/media/pack.ts: more than AAC's priming and padding). */
const AUDIO_TRIM_SECONDS = 0.05;
/**
 * The progressive file is built in memory (its index goes first) and, over 64 MiB, sent in parts
 * (worker/admin/media-multipart.ts): this bounds what one browser tab is asked to hold.
 */
export const PROGRESSIVE_MAX_BYTES = 2 * 1024 * 1024 * 1024;

export interface Probe {
  duration: number;
  bytes: number;
  container: string;
  video: { codec: string; width: number; height: number; fps: number };
  audio: { codec: string; channels: number; sampleRate: number } | null;
  /** What happens to the audio (copied, encoded to AAC, silence added, refused): shared/upload/audio.ts. */
  audioPlan: AudioPlan;
  /** The same in a few words for the page (e.g. "Opus → AAC 重新编码（48/96 kbit/s）"). */
  audioAction: string;
  rungs: Array<{ height: number; width: number }>;
  progressiveHeight: number;
  /** Why this browser cannot pack the file (Chinese, naming the codec), or null. */
  problem: string | null;
}

const CLI_HINT = "请在电脑上用命令行打包：npm run catalogue -- add <文件> --series <编号>（输出与此处相同）";

/** RFC 6381 string the rung asks the encoder for (the CLI's x264 profile and level). */
export function rungCodec(rung: Rung): string {
  const profile = rung.profile === "high" ? "64" : "4d";
  const level = Math.round(Number(rung.level) * 10)
    .toString(16)
    .padStart(2, "0");
  return `avc1.${profile}00${level}`;
}

const rungBitrate = (rung: Rung) => rung.maxrateKbps * 1000 * 0.9;

/** A rung's video encoder: its profile and level, 90 % of its maxrate (variable), key frames only where asked for. */
function rungVideoSource(
  rung: Rung,
  onEncodedPacket: (packet: EncodedPacket, meta: EncodedVideoChunkMetadata | undefined) => Promise<void> | void,
): VideoSampleSource {
  return new VideoSampleSource({
    codec: "avc",
    bitrate: rungBitrate(rung),
    bitrateMode: "variable",
    fullCodecString: rungCodec(rung),
    keyFrameInterval: 1e6,
    latencyMode: "quality",
    onEncodedPacket,
  });
}

function open(file: Blob): Input {
  return new Input({ source: new BlobSource(file), formats: ALL_FORMATS });
}

/** What the file holds and what it will make; `problem` says why this browser cannot (decode, H.264, audio). */
export async function probeFile(file: Blob): Promise<Probe> {
  const input = open(file);
  const format = await input.getFormat().catch(() => null);
  const video = format ? await input.getPrimaryVideoTrack() : null;
  const empty: Probe = {
    duration: 0,
    bytes: file.size,
    container: format?.name ?? "",
    video: { codec: "", width: 0, height: 0, fps: 0 },
    audio: null,
    audioPlan: { kind: "silence" },
    audioAction: "",
    rungs: [],
    progressiveHeight: 0,
    problem: null,
  };
  if (!format) return { ...empty, problem: `无法识别这个文件的格式（支持 MP4、MOV、MKV、WebM）。${CLI_HINT}` };
  if (!video) return { ...empty, problem: `这个文件没有视频轨。${CLI_HINT}` };
  const audio = await input.getPrimaryAudioTrack();
  const duration = await input.computeDuration();
  const stats = await video.computePacketStats(120);
  const fps = Math.round(stats.averagePacketRate * 1000) / 1000;
  const width = video.displayWidth - (video.displayWidth % 2);
  const height = video.displayHeight - (video.displayHeight % 2);
  const codec = (await video.getCodecParameterString()) ?? video.codec ?? "未知";
  const rungs = laddersFor(height);
  const plan = audioPlan(
    audio ? { codec: audio.codec, parameter: await audio.getCodecParameterString(), decodable: audio.codec === "aac" || (await audio.canDecode()) } : null,
    CLI_HINT,
  );
  const progressiveHeight = Math.max(...rungs.filter((r) => r.height <= 720).map((r) => r.height), rungs[0].height);
  const probe: Probe = {
    duration,
    bytes: file.size,
    container: format.name,
    video: { codec, width, height, fps },
    audio: audio
      ? { codec: (await audio.getCodecParameterString()) ?? audio.codec ?? "未知", channels: audio.numberOfChannels, sampleRate: audio.sampleRate }
      : null,
    audioPlan: plan,
    audioAction: audioPlanText(plan, rungs),
    rungs: rungs.map((r) => ({ height: r.height, width: r.width })),
    progressiveHeight,
    problem: null,
  };
  if (!(await video.canDecode())) return { ...probe, problem: `此浏览器无法解码这个文件的视频编码 ${codec}。${CLI_HINT}` };
  for (const rung of rungs) {
    const config = { codec: rungCodec(rung), width: rung.width, height: rung.height, bitrate: rungBitrate(rung), framerate: fps || 25 };
    const support = await VideoEncoder.isConfigSupported(config).catch(() => ({ supported: false }));
    if (!support.supported) return { ...probe, problem: `此浏览器无法编码 H.264（${config.codec}，${rung.width}×${rung.height}）。${CLI_HINT}` };
  }
  if (plan.kind === "refuse") return { ...probe, problem: plan.problem };
  const progressiveRung = rungs.find((r) => r.height === progressiveHeight)!;
  const estimate = (duration * (progressiveRung.maxrateKbps + progressiveRung.audioKbps) * 1000) / 8;
  if (estimate > PROGRESSIVE_MAX_BYTES) {
    return { ...probe, problem: `视频太长（约 ${Math.round(estimate / 1024 / 1024)} MB 的兼容 MP4），超过浏览器打包的上限 2 GB。${CLI_HINT}` };
  }
  return probe;
}

export interface PackedObject {
  name: string;
  bytes: Uint8Array<ArrayBuffer>;
  /** The rung it belongs to (progress bars), or null. */
  height: number | null;
  /** A segment the server already holds under this name from an earlier run with the same init segment: not sent again. */
  stored?: boolean;
}

export interface PackOptions {
  uploadId: string;
  /** What the server holds already (继续上传): name → size and SHA-256. */
  stored: ReadonlyMap<string, { size: number; sha256: string }>;
  /** Seconds into the video of the cover frame (the title's own video only; null: no cover). */
  coverTime: number | null;
  emit: (object: PackedObject) => Promise<void>;
  /** Seconds of source packed so far. */
  onProgress: (seconds: number) => void;
}

const hexOf = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

async function shortHash(text: string, bytes?: Uint8Array<ArrayBuffer>): Promise<string> {
  const head = new TextEncoder().encode(text);
  const all = new Uint8Array(head.length + (bytes?.length ?? 0));
  all.set(head);
  if (bytes) all.set(bytes, head.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return [...digest.subarray(0, 4)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const concat = (parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

interface RungOutput {
  rung: Rung;
  output: Output;
  source: VideoSampleSource;
  audio: EncodedAudioPacketSource;
  canvas: OffscreenCanvas;
  context: OffscreenCanvasRenderingContext2D;
  version: Promise<string>;
  codecs: string | null;
  segments: Array<{ uri: string; duration: number; bytes: number }>;
  pending: Array<Promise<void>>;
  initBytes: number;
}

/** Packs `file` (probed as `probe`) and emits every object; resolves when the last one is emitted. */
export async function packFile(file: Blob, probe: Probe, o: PackOptions): Promise<void> {
  const input = open(file);
  const videoTrack = (await input.getPrimaryVideoTrack())!;
  const audioTrack = await input.getPrimaryAudioTrack();
  const fps = probe.video.fps || 25;
  const gop = Math.round(fps * SEGMENT_SECONDS);
  const rungs = laddersFor(probe.video.height);

  // The progressive MP4: the chosen rung's encoded packets and the audio, in one plain MP4 with its index first.
  const progressive = new Output({ format: new Mp4OutputFormat({ fastStart: "in-memory" }), target: new BufferTarget() });
  const progressiveVideo = new EncodedVideoPacketSource("avc");
  const progressiveAudio = new EncodedAudioPacketSource("aac");
  progressive.addVideoTrack(progressiveVideo, { frameRate: fps });
  progressive.addAudioTrack(progressiveAudio);

  // The start rung's light start (shared/stream/ladder.ts): its first seconds encoded once more at the light cap.
  const light = await lightStartOutput(rungs[0], fps, gop);
  const outputs: RungOutput[] = [];
  for (const rung of rungs) {
    let init: Uint8Array[] = [];
    let fragment: Uint8Array | null = null;
    let fragmentStart = 0;
    let reuse = false;
    let resolveVersion: (v: string) => void = () => {};
    const version = new Promise<string>((resolve) => (resolveVersion = resolve));
    const canvas = new OffscreenCanvas(rung.width, rung.height);
    const context = canvas.getContext("2d")!;
    const entry = { rung, version, codecs: null, segments: [], pending: [], initBytes: 0, canvas, context } as unknown as RungOutput;
    const format = new Mp4OutputFormat({
      fastStart: "fragmented",
      minimumFragmentDuration: SEGMENT_SECONDS / 2,
      onFtyp: (data) => {
        init = [data.slice()];
      },
      onMoov: (data) => {
        // Without mediabunny's creation times (the muxer's start, to the second): the same file and encoder
        // make the same init segment in every run, so 继续上传 reuses what the first page sent (decision 0102).
        const bytes = withoutMovieTimes(concat([...init, data]));
        entry.initBytes = bytes.length;
        // The rung's version is fixed per upload, so 继续上传 finds the segments it sent before — unless this
        // run's init segment differs from the stored one (another encoder), then every name is new.
        const named = Promise.all([shortHash(`${o.uploadId}:${rung.height}:`), crypto.subtle.digest("SHA-256", bytes)]).then(async ([fixed, sha]) => {
          const before = o.stored.get(streamNames.init(rung.height, fixed));
          const v = !before || before.sha256 === hexOf(sha) ? fixed : await shortHash(`${o.uploadId}:${rung.height}:`, bytes);
          reuse = v === fixed && before !== undefined;
          resolveVersion(v);
          await o.emit({ name: streamNames.init(rung.height, v), bytes, height: rung.height });
        });
        entry.pending.push(named);
      },
      onMoof: (data, _position, timestamp) => {
        fragment = data.slice();
        fragmentStart = timestamp;
      },
      onMdat: (data) => {
        if (!fragment) return;
        const bytes = concat([fragment, data]);
        fragment = null;
        const index = entry.segments.length;
        const segment = { uri: "", duration: 0, bytes: bytes.length, start: fragmentStart };
        entry.segments.push(segment);
        // A segment of the light start: its light bytes, where the two encodes agree (once the light one is done).
        const chosen = light && rung === rungs[0] && light.segments.includes(index) ? light.segment(index, fragmentStart, bytes) : Promise.resolve(bytes);
        entry.pending.push(
          Promise.all([version, chosen]).then(async ([v, chosenBytes]) => {
            segment.uri = streamNames.segment(rung.height, v, index);
            segment.bytes = chosenBytes.length;
            const before = reuse ? o.stored.get(segment.uri) : undefined;
            if (before) segment.bytes = before.size;
            await o.emit({ name: segment.uri, bytes: chosenBytes, height: rung.height, stored: before !== undefined });
          }),
        );
      },
    });
    const output = new Output({ format, target: new NullTarget() });
    const source = rungVideoSource(rung, (packet, meta) => {
      if (meta?.decoderConfig && !entry.codecs) entry.codecs = meta.decoderConfig.codec;
      if (meta?.decoderConfig && light && rung === rungs[0]) light.ownConfig(meta.decoderConfig);
      if (rung.height === probe.progressiveHeight) return progressiveVideo.add(packet, meta);
    });
    const audio = new EncodedAudioPacketSource("aac");
    output.addVideoTrack(source, { frameRate: fps });
    output.addAudioTrack(audio);
    await output.start();
    Object.assign(entry, { output, source, audio });
    outputs.push(entry);
  }
  await progressive.start();

  // Audio (./audio.ts): the source's AAC copied, or AAC encoded from its audio or from silence at each rung's
  // bitrate, into every rung and the progressive file, kept just ahead of the video.
  const progressiveRung = rungs.find((r) => r.height === probe.progressiveHeight) ?? rungs[0];
  const targets: AudioTarget[] = [
    ...outputs.map((r) => ({ kbps: r.rung.audioKbps, source: r.audio })),
    ...(light ? [{ kbps: rungs[0].audioKbps, source: light.audio }] : []),
    { kbps: progressiveRung.audioKbps, source: progressiveAudio },
  ];
  // The audio ends AUDIO_TRIM_SECONDS before the video, as the CLI's (its tail would make a last, audio-only segment).
  const audioEnd = (await videoTrack.computeDuration()) - AUDIO_TRIM_SECONDS;
  const feed = await audioFeed(probe.audioPlan, audioTrack, audioEnd, targets);

  // Storyboard sheets and the cover, drawn from the source frames as they pass.
  const layout = storyboardLayout(probe.duration);
  const tiles = tileCount(layout);
  const sheetVersion = await shortHash(`${o.uploadId}:storyboard:${JSON.stringify(layout)}`);
  const sheetCanvas = new OffscreenCanvas(layout.columns * layout.tileWidth, layout.rows * layout.tileHeight);
  const sheet = sheetCanvas.getContext("2d")!;
  let tile = 0;
  let sheetIndex = 0;
  const sheetJobs: Array<Promise<void>> = [];
  const flushSheet = (k: number) => {
    const blob = sheetCanvas.convertToBlob({ type: "image/jpeg", quality: 0.7 });
    sheet.clearRect(0, 0, sheetCanvas.width, sheetCanvas.height);
    sheetJobs.push(blob.then(async (b) => o.emit({ name: streamNames.sprite(sheetVersion, k), bytes: new Uint8Array(await b.arrayBuffer()), height: null })));
  };
  let coverJob: Promise<void> | null = null;
  const shareFrames = new ShareFrameWriter(probe.duration, probe.video.width, probe.video.height, o.emit);

  let frame = 0;
  let lastTime = 0;
  for await (const sample of new VideoSampleSink(videoTrack).samples()) {
    const t = sample.timestamp;
    lastTime = t;
    await feed.upTo(t + 1);
    const keyFrame = frame % gop === 0;
    for (const r of outputs) {
      sample.draw(r.context, 0, 0, r.rung.width, r.rung.height);
      const scaled = new VideoSample(r.canvas, { timestamp: frame / fps, duration: 1 / fps });
      await r.source.add(scaled, { keyFrame });
      if (light && r === outputs[0]) await light.addFrame(scaled, frame, keyFrame);
      scaled.close();
    }
    while (tile < tiles && t + 0.5 / fps >= tile * layout.interval) {
      const at = tilePosition(layout, tile);
      if (at.sheet !== sheetIndex) {
        flushSheet(sheetIndex);
        sheetIndex = at.sheet;
      }
      sample.draw(sheet, at.x, at.y, layout.tileWidth, layout.tileHeight);
      tile++;
    }
    if (o.coverTime !== null && coverJob === null && t + 0.5 / fps >= o.coverTime) coverJob = emitCover(sample, o.emit);
    shareFrames.offer(sample, t, fps);
    sample.close();
    frame++;
    if (frame % 10 === 0) o.onProgress(t);
  }
  await feed.finish();
  await light?.finish();
  if (tile > 0) flushSheet(sheetIndex);
  for (const r of outputs) {
    r.source.close();
    r.audio.close();
    await r.output.finalize();
    await Promise.all(r.pending);
  }
  progressiveVideo.close();
  progressiveAudio.close();
  await progressive.finalize();
  o.onProgress(lastTime);
  if (o.coverTime !== null && coverJob === null) throw new Error("封面时间超出了视频长度");
  await Promise.all([...sheetJobs, coverJob, shareFrames.done()]);

  // Playlists, measured as the CLI measures them; every segment lasts until the next one starts.
  const duration = frame / fps;
  const variants: HlsVariant[] = [];
  for (const r of outputs) {
    const v = await r.version;
    const starts = r.segments.map((s) => (s as unknown as { start: number }).start);
    r.segments.forEach((s, i) => (s.duration = Math.round(((starts[i + 1] ?? duration) - starts[i]) * 1e6) / 1e6));
    await o.emit({
      name: streamNames.mediaPlaylist(r.rung.height),
      bytes: new TextEncoder().encode(writeMediaPlaylist({ segments: r.segments, map: streamNames.init(r.rung.height, v) })),
      height: r.rung.height,
    });
    const bytes = r.segments.reduce((n, s) => n + s.bytes, 0);
    variants.push({
      bandwidth: Math.ceil(Math.max(...r.segments.map((s) => (s.bytes * 8) / Math.max(s.duration, 0.001)))),
      averageBandwidth: Math.ceil(((bytes + r.initBytes) * 8) / duration),
      width: r.rung.width,
      height: r.rung.height,
      codecs: [r.codecs ?? rungCodec(r.rung), feed.codec],
      frameRate: fps,
      uri: streamNames.mediaPlaylist(r.rung.height),
    });
  }
  const text = (s: string) => new TextEncoder().encode(s);
  await o.emit({ name: streamNames.storyboard, bytes: text(writeStoryboardVtt({ ...layout, duration }, spriteName(sheetVersion))), height: null });
  // Without creation times too: a page closed after packing sends the same bytes again, which the uploader skips.
  const progressiveBytes = withoutMovieTimes(new Uint8Array(progressive.target.buffer!));
  await o.emit({ name: PROGRESSIVE_NAME, bytes: progressiveBytes, height: null });
  await o.emit({
    name: streamNames.master,
    // No subtitles: the operator adds real ones in 字幕 (worker/admin/subtitles.ts); publishing writes `subtitles: []`.
    bytes: text(writeMasterPlaylist({ variants: variants.sort((a, b) => a.bandwidth - b.bandwidth) })),
    height: null,
  });
}

interface LightStartOutput {
  /** The segments it replaces. */
  segments: readonly number[];
  /** Frame `frame` of the start rung, scaled; those past its last segment are not taken. */
  addFrame(sample: VideoSample, frame: number, keyFrame: boolean): Promise<void>;
  /** Its audio: the packets before its end. */
  audio: AudioTarget["source"];
  /** The start rung's own decoder configuration (its first key frame's). */
  ownConfig(config: VideoDecoderConfig): void;
  /**
   * Closes and finalizes it (once; later calls wait for the first). It does so by itself once it has
   * its last frame and an audio packet past its end (the packets come in order, an encoder's late).
   */
  finish(): Promise<void>;
  /** Segment `index` of the start rung (`own`: its own bytes, starting at `start` s): the light one where the encodes agree. */
  segment(index: number, start: number, own: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>>;
}

const sameBytes = (a: AllowSharedBufferSource | undefined, b: AllowSharedBufferSource | undefined): boolean => {
  if (!a || !b) return false;
  const x = ArrayBuffer.isView(a) ? new Uint8Array(a.buffer, a.byteOffset, a.byteLength) : new Uint8Array(a);
  const y = ArrayBuffer.isView(b) ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : new Uint8Array(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/**
 * The start rung's light start (the CLI's applyLightStart in scripts/media/pack.ts does the same): its
 * first frames encoded again at the light cap into fragments of their own. Its segments take the
 * place of the rung's where the two encoders made the same decoder configuration (the rung's init
 * segment decodes them) and the fragment starts at the same time; otherwise the rung keeps its own.
 */
async function lightStartOutput(start: Rung, fps: number, gop: number): Promise<LightStartOutput | null> {
  const rung = lightStartRung(start);
  if (!rung || !start.lightStart) return null;
  const seconds = lightStartSeconds(start.lightStart, SEGMENT_SECONDS);
  const fragments: Array<{ start: number; bytes: Uint8Array<ArrayBuffer> }> = [];
  let fragment: Uint8Array | null = null;
  let fragmentStart = 0;
  let own: VideoDecoderConfig | null = null;
  let mine: VideoDecoderConfig | null = null;
  const format = new Mp4OutputFormat({
    fastStart: "fragmented",
    minimumFragmentDuration: SEGMENT_SECONDS / 2,
    onMoof: (data, _position, timestamp) => {
      fragment = data.slice();
      fragmentStart = timestamp;
    },
    onMdat: (data) => {
      if (fragment) fragments.push({ start: fragmentStart, bytes: concat([fragment, data]) });
      fragment = null;
    },
  });
  const output = new Output({ format, target: new NullTarget() });
  const source = rungVideoSource(rung, (_packet, meta) => {
    if (meta?.decoderConfig && !mine) mine = meta.decoderConfig;
  });
  const audio = new EncodedAudioPacketSource("aac");
  output.addVideoTrack(source, { frameRate: fps });
  output.addAudioTrack(audio);
  await output.start();
  const frames = (Math.max(...start.lightStart.segments) + 1) * gop;
  let videoDone = false;
  let audioDone = false;
  let finished: Promise<void> | null = null;
  let markDone = () => {};
  const done = new Promise<void>((resolve) => (markDone = resolve));
  let failed = false;
  const finish = () =>
    (finished ??= (async () => {
      try {
        source.close();
        audio.close();
        await output.finalize();
      } catch {
        // The rung keeps its own segments: the light start only ever makes them smaller.
        failed = true;
      } finally {
        markDone();
      }
    })());
  const finishWhenWhole = () => void (videoDone && audioDone && finish());
  return {
    segments: start.lightStart.segments,
    async addFrame(sample, frame, keyFrame) {
      if (finished || frame >= frames) return;
      await source.add(sample, { keyFrame });
      videoDone = frame === frames - 1;
      finishWhenWhole();
    },
    // Its audio through its last frame, as the rung's own fragments hold it.
    audio: {
      add: async (packet, meta) => {
        if (finished) return;
        if (packet.timestamp < seconds) return audio.add(packet, meta);
        audioDone = true;
        finishWhenWhole();
      },
    },
    ownConfig: (config) => void (own ??= config),
    finish,
    async segment(index, start, ownBytes) {
      await done;
      const lighter = fragments[index];
      const agree = own !== null && mine !== null && sameBytes(own.description, mine.description);
      return !failed && agree && lighter && Math.abs(lighter.start - start) < 0.5 / fps ? lighter.bytes : ownBytes;
    },
  };
}

/** The cover: the frame centre-cropped to 16:9 and scaled to 640×360, as WebP (client/admin/cover-upload.ts's shape). */
async function emitCover(sample: VideoSample, emit: PackOptions["emit"]): Promise<void> {
  const canvas = new OffscreenCanvas(640, 360);
  const context = canvas.getContext("2d")!;
  const w = sample.displayWidth;
  const h = sample.displayHeight;
  const scale = Math.max(640 / w, 360 / h);
  const sw = 640 / scale;
  const sh = 360 / scale;
  const frame = sample.toVideoFrame();
  context.drawImage(frame, (w - sw) / 2, (h - sh) / 2, sw, sh, 0, 0, 640, 360);
  frame.close();
  const blob = await canvas.convertToBlob({ type: "image/webp", quality: 0.82 });
  await emit({ name: COVER_NAME, bytes: new Uint8Array(await blob.arrayBuffer()), height: null });
}
