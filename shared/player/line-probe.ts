/**
 * 线路 failover on the browser's own HLS player (docs/decisions/0095-native-line-probe.md): the
 * page cannot see that player's failing requests, so when it stalls on a title with several lines
 * the page asks the line itself — the segment at the playhead, its first byte, uncached, after the
 * line's master and first variant's playlist (the browser's cache answers those while fresh). A
 * refused request or an HTTP error is a verdict; a slow answer is not.
 * Loaded after hydration, and only for a title with several lines on the native engine
 * (shared/player/useLineFailover.ts): never in the page's entry chunk.
 */
import { parseMasterPlaylist, parseMediaPlaylist, PlaylistError } from "../stream/hls";

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

/**
 * Whether the line of master playlist `master` fails to serve the segment at `time` seconds now.
 * False when it serves it, or when its playlists cannot be read as HLS (not this check's business).
 */
export async function probeLine(master: string, time: number, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const masterUrl = new URL(master, globalThis.location?.href);
    const variant = parseMasterPlaylist(await (await get(masterUrl, { signal })).text()).variants[0];
    if (!variant) return false;
    const mediaUrl = new URL(variant.uri, masterUrl);
    const segments = parseMediaPlaylist(await (await get(mediaUrl, { signal })).text()).segments;
    let end = 0;
    const segment = segments.find((s) => (end += s.duration) > time) ?? segments.at(-1);
    if (!segment) return false;
    const res = await get(new URL(segment.uri, mediaUrl), { signal, cache: "no-store", headers: { Range: "bytes=0-0" } });
    await res.body?.cancel();
    return false;
  } catch (error) {
    // A request that failed or answered an HTTP error: the line is failing. Out of time is no
    // verdict (a slow link shared with the player's own downloads): the longer stall rule decides.
    if (signal.aborted) return false;
    return !(error instanceof PlaylistError);
  }
}
