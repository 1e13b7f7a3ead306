/**
 * The browser packer's half of 片头 / 片尾 detection (docs/decisions/0099-browser-intro-detection.md):
 * the episode's audio decoded by WebCodecs (mediabunny's AudioSampleSink), mixed to mono and brought
 * to the fingerprint's rate (shared/media/mono-pcm.ts), fingerprinted (shared/media/intro-fingerprint.ts);
 * then matched with the neighbouring episodes' stored fingerprints
 * (GET /api/admin/uploads/{id}/fingerprints/{episode}, worker/admin/media-fingerprints.ts). What it
 * finds goes with the publish, which writes it into the entry (worker/admin/media-uploads.ts).
 */
import { ALL_FORMATS, AudioSampleSink, BlobSource, Input } from "mediabunny";
import { fingerprint } from "../../../shared/media/intro-fingerprint";
import { fingerprintFromBytes, MonoDownsampler } from "../../../shared/media/mono-pcm";
import { foundWithNeighbours, type EpisodeFound } from "../../../shared/media/series-markers";

/** The fingerprint of `file`'s first audio track (empty when it has none). */
export async function audioFingerprint(file: Blob): Promise<Uint32Array> {
  const input = new Input({ source: new BlobSource(file), formats: ALL_FORMATS });
  const track = await input.getPrimaryAudioTrack();
  if (!track) return new Uint32Array(0);
  const pcm = new MonoDownsampler(track.sampleRate, await track.computeDuration());
  let planes: Float32Array[] = [];
  for await (const sample of new AudioSampleSink(track).samples()) {
    if (planes.length !== sample.numberOfChannels || planes[0].length !== sample.numberOfFrames) {
      planes = Array.from({ length: sample.numberOfChannels }, () => new Float32Array(sample.numberOfFrames));
    }
    planes.forEach((plane, i) => sample.copyTo(plane, { planeIndex: i, format: "f32-planar" }));
    pcm.push(planes, sample.timestamp);
    sample.close();
  }
  return fingerprint(pcm.result());
}

/**
 * What episode `episode` (1-based) of the upload and its neighbours found in each other: the
 * neighbours' fingerprints fetched from the site (an episode that does not exist or has none: left out).
 */
export async function markersWithNeighbours(uploadId: string, episode: number, own: Uint32Array): Promise<EpisodeFound[]> {
  const neighbours: Array<{ episode: number; codes: Uint32Array }> = [];
  for (const n of [episode + 1, episode - 1]) {
    if (n < 1) continue;
    const res = await fetch(`/api/admin/uploads/${uploadId}/fingerprints/${n}`, { credentials: "same-origin" });
    if (res.status === 404) continue;
    if (!res.ok) throw new Error(`第${n}集的音频指纹读取失败（${res.status}）`);
    const codes = fingerprintFromBytes(new Uint8Array(await res.arrayBuffer()));
    if (codes) neighbours.push({ episode: n, codes });
  }
  return neighbours.length > 0 ? foundWithNeighbours(episode, own, neighbours) : [];
}
