/**
 * The browser packer's audio (docs/decisions/0082-browser-upload-audio.md; the plan itself:
 * shared/upload/audio.ts): every rung's and the progressive file's audio track is fed from here,
 * kept just ahead of the video so the muxers can close their fragments.
 *
 * - copy: the source's AAC packets, unchanged, into every target;
 * - encode / silence: the source decoded by WebCodecs (mediabunny's AudioSampleSink), or silence,
 *   mixed and resampled by mediabunny to stereo 48 kHz and encoded to AAC-LC once per distinct
 *   bitrate (the CLI's ladder); each encode's packets go to the targets of that bitrate. The
 *   encoder is the browser's own AudioEncoder where it has AAC, otherwise FFmpeg's AAC encoder
 *   built to WASM (@mediabunny/aac-encoder), loaded here only when needed.
 *
 * Like the CLI's, the audio ends `end` seconds in (a little before the video); packets past it are
 * dropped. Everything is a function of the source's bytes: a second run of the same file (继续上传)
 * makes the same packets.
 */
import {
  AudioSample,
  AudioSampleSink,
  AudioSampleSource,
  canEncodeAudio,
  EncodedPacketSink,
  Mp4OutputFormat,
  NullTarget,
  Output,
  Quality,
  type EncodedAudioPacketSource,
  type EncodedPacket,
  type InputAudioTrack,
} from "mediabunny";
import { AAC_LC_CODEC } from "../../../shared/stream/hls";
import { AAC_CHANNELS, AAC_SAMPLE_RATE } from "../../../shared/stream/ladder";
import { audioBitrates, type AudioPlan } from "../../../shared/upload/audio";

/** An output's audio track and the AAC bitrate its rung asks for (kbit/s). */
export interface AudioTarget {
  kbps: number;
  source: Pick<EncodedAudioPacketSource, "add">;
}

export interface AudioFeed {
  /** Adds to every target the audio that starts up to `t` seconds. */
  upTo(t: number): Promise<void>;
  /** Adds the rest (the targets stay open: the caller closes them). */
  finish(): Promise<void>;
  /** The audio's RFC 6381 string for CODECS. */
  codec: string;
}

type Meta = EncodedAudioChunkMetadata | undefined;

/** Registers the WASM AAC encoder unless this browser's AudioEncoder makes AAC-LC at the rungs' settings. */
async function ensureAacEncoder(kbps: number): Promise<void> {
  const native = await canEncodeAudio("aac", {
    numberOfChannels: AAC_CHANNELS,
    sampleRate: AAC_SAMPLE_RATE,
    quality: new Quality({ bitrate: kbps * 1000 }),
  });
  if (native) return;
  const { registerAacEncoder } = await import("@mediabunny/aac-encoder");
  registerAacEncoder();
}

/** The feed for `plan` (not "refuse"): `track` the source's audio (null for silence), `end` where the audio stops. */
export async function audioFeed(plan: AudioPlan, track: InputAudioTrack | null, end: number, targets: readonly AudioTarget[]): Promise<AudioFeed> {
  if (plan.kind === "copy" && track) return copyFeed(track, end, targets);
  if (plan.kind === "refuse") throw new Error(plan.problem);
  const samples = plan.kind === "encode" && track ? new AudioSampleSink(track).samples() : silence(end);
  return encodeFeed(samples, end, targets);
}

/** The source's AAC packets into every target; the first with its decoder config. */
async function copyFeed(track: InputAudioTrack, end: number, targets: readonly AudioTarget[]): Promise<AudioFeed> {
  const config = await track.getDecoderConfig();
  const packets = new EncodedPacketSink(track).packets()[Symbol.asyncIterator]();
  let first = true;
  const upTo = puller(packets, async (packet) => {
    if (packet.timestamp + packet.duration <= end) {
      const meta = first && config ? { decoderConfig: config } : undefined;
      first = false;
      await Promise.all(targets.map((x) => x.source.add(packet, meta)));
    }
    return packet.timestamp;
  });
  return { upTo, finish: () => upTo(Infinity), codec: config?.codec ?? AAC_LC_CODEC };
}

/**
 * `upTo(t)` for a feed: takes the items of `items` in order, each through `take` (which answers
 * the item's time), until it has taken one past `t` or none is left.
 */
function puller<T>(items: AsyncIterator<T> | Iterator<T>, take: (item: T) => Promise<number>): (t: number) => Promise<void> {
  let done = false;
  let time = -Infinity;
  return async (t) => {
    while (!done && time <= t) {
      const next = await items.next();
      if (next.done) done = true;
      else time = await take(next.value);
    }
  };
}

/** Silence from 0 to `end` seconds, in one-second samples at the rungs' rate and channels. */
function* silence(end: number): Generator<AudioSample> {
  for (let second = 0; second < end; second++) {
    yield new AudioSample({
      data: new Float32Array(AAC_SAMPLE_RATE * AAC_CHANNELS),
      format: "f32-planar",
      numberOfChannels: AAC_CHANNELS,
      sampleRate: AAC_SAMPLE_RATE,
      timestamp: second,
    });
  }
}

interface Encode {
  output: Output;
  source: AudioSampleSource;
  encoded: Array<[EncodedPacket, Meta]>;
  targets: readonly AudioTarget[];
  /** The decoder config of a first packet dropped before it reached the targets, kept for the next one. */
  meta: Meta;
}

/** `samples` encoded to AAC-LC once per distinct bitrate of `targets`, each encode's packets into its targets. */
async function encodeFeed(samples: AsyncIterable<AudioSample> | Iterable<AudioSample>, end: number, targets: readonly AudioTarget[]): Promise<AudioFeed> {
  const rates = audioBitrates(targets.map((x) => ({ audioKbps: x.kbps })));
  await ensureAacEncoder(Math.max(...rates));
  const encodes: Encode[] = [];
  for (const kbps of rates) {
    const encoded: Array<[EncodedPacket, Meta]> = [];
    // The encoder's own output: what it muxes is not kept (the packets are taken from onEncodedPacket).
    const output = new Output({ format: new Mp4OutputFormat({ fastStart: "fragmented" }), target: new NullTarget() });
    const source = new AudioSampleSource({
      codec: "aac",
      quality: new Quality({ bitrate: kbps * 1000 }),
      transform: { numberOfChannels: AAC_CHANNELS, sampleRate: AAC_SAMPLE_RATE },
      onEncodedPacket: (packet, meta) => {
        encoded.push([packet, meta]);
      },
    });
    output.addAudioTrack(source);
    await output.start();
    encodes.push({ output, source, encoded, targets: targets.filter((x) => x.kbps === kbps), meta: undefined });
  }
  const pass = async (e: Encode) => {
    for (let next = e.encoded.shift(); next; next = e.encoded.shift()) {
      const [packet, meta] = next;
      e.meta ??= meta;
      if (packet.timestamp < 0 || packet.timestamp + packet.duration > end) continue;
      const first = e.meta;
      e.meta = undefined;
      await Promise.all(e.targets.map((x) => x.source.add(packet, first)));
    }
  };
  const iterator = Symbol.asyncIterator in samples ? samples[Symbol.asyncIterator]() : samples[Symbol.iterator]();
  const upTo = puller(iterator, async (sample) => {
    try {
      if (sample.timestamp < end) await Promise.all(encodes.map((e) => e.source.add(sample)));
    } finally {
      sample.close();
    }
    for (const e of encodes) await pass(e);
    return sample.timestamp;
  });
  const finish = async () => {
    await upTo(Infinity);
    for (const e of encodes) {
      e.source.close();
      await e.output.finalize();
      await pass(e);
    }
  };
  return { upTo, finish, codec: AAC_LC_CODEC };
}
