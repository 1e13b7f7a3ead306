/**
 * 线路 failover on the browser's own HLS player (docs/decisions/0095-native-line-probe.md): the
 * page cannot see that player's failing requests, so when it stalls on a title with several lines
 * the page asks the line itself — the segment at the playhead, its first byte, uncached, after the
 * line's master and first variant's playlist (the browser's cache answers those while fresh). A
 * refused request or an HTTP error is a verdict; a slow answer is not. The playlists are read once
 * playback runs (primeLine), so that at a stall the probe is a single request.
 * Loaded after hydration, and only for a title with several lines on the native engine
 * (shared/player/useLineFailover.ts): never in the page's entry chunk.
 */
import { parseMasterPlaylist, parseMediaPlaylist, PlaylistError } from "../stream/hls-parse";

/** How long the probe waits; no answer by then is no verdict (the 4 s stall rule still applies). */
export const PROBE_TIMEOUT_MS = 2000;

async function get(url: URL, init: RequestInit): Promise<Response> {
  const res = await fetch(url, init).catch((error: unknown) => {
    throw new Error(`${url.pathname}: ${String(error)}`);
  });
  // 416: a range past an empty object's end — the host answered.
  if (!res.ok && res.status !== 416) throw new Error(`${url.pathname}: ${res.status}`);
  return res;
}

/** A line's first variant: its media playlist's URL and segments. */
interface SegmentList {
  mediaUrl: URL;
  segments: ReadonlyArray<{ duration: number; uri: string }>;
}

/** The segment lists read so far, by master playlist (a VOD playlist does not change while the page lives). */
const lists = new Map<string, SegmentList>();

async function segmentList(master: string, signal: AbortSignal): Promise<SegmentList | null> {
  const known = lists.get(master);
  if (known) return known;
  const masterUrl = new URL(master, globalThis.location?.href);
  const variant = parseMasterPlaylist(await (await get(masterUrl, { signal })).text()).variants[0];
  if (!variant) return null;
  const mediaUrl = new URL(variant.uri, masterUrl);
  const list = { mediaUrl, segments: parseMediaPlaylist(await (await get(mediaUrl, { signal })).text()).segments };
  lists.set(master, list);
  return list;
}

/**
 * Reads the line's playlists ahead of a stall (once playback runs), so that the probe is then
 * one request: on slow 4G the two playlists cost ~0.8 s (the native player's own copies are not
 * in the page's HTTP cache). Failing here says nothing: the probe reads them itself.
 */
export async function primeLine(master: string): Promise<void> {
  await segmentList(master, AbortSignal.timeout(10_000)).catch(() => null);
}

/**
 * Whether the line of master playlist `master` fails to serve the segment at `time` seconds now.
 * False when it serves it, or when its playlists cannot be read as HLS (not this check's business).
 */
export async function probeLine(master: string, time: number, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const list = await segmentList(master, signal);
    if (!list) return false;
    let end = 0;
    const segment = list.segments.find((s) => (end += s.duration) > time) ?? list.segments.at(-1);
    if (!segment) return false;
    const res = await get(new URL(segment.uri, list.mediaUrl), { signal, cache: "no-store", headers: { Range: "bytes=0-0" } });
    await res.body?.cancel();
    return false;
  } catch (error) {
    // A request that failed or answered an HTTP error: the line is failing. Out of time is no
    // verdict (a slow link shared with the player's own downloads): the longer stall rule decides.
    if (signal.aborted) return false;
    return !(error instanceof PlaylistError);
  }
}
