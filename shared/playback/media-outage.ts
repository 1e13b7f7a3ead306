/**
 * A media outage (the storage behind the site's media failing for a while: R2 answering 503,
 * a broken connection) as the player meets it: it shows 加载失败，点击重试 and tries again with
 * back-off at the same position, instead of moving on to another title as a broken file does
 * (docs/decisions/0064-media-outage-retry.md).
 */

/** The text of the outage overlay (a button: a tap retries at once). */
export const OUTAGE_TEXT = "加载失败，点击重试";

/** Waits between automatic retries: 1 s, 2 s, 4 s, 8 s, 16 s, then every 30 s. */
const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 16_000, 30_000] as const;

/** The wait before automatic retry number `attempt` (0 first). */
export const retryDelayMs = (attempt: number): number => RETRY_DELAYS_MS[Math.min(Math.max(0, attempt), RETRY_DELAYS_MS.length - 1)];

/** What a small request for the media answered: there, failing for now, or not there at all. */
export type MediaProbe = "up" | "down" | "missing";

/** The verdict of a probe's HTTP status (null: the request itself failed, e.g. no connection). */
export function probeVerdict(status: number | null): MediaProbe {
  if (status === null || status === 408 || status === 425 || status === 429 || status >= 500) return "down";
  return status >= 200 && status < 300 ? "up" : "missing";
}

/** HTMLMediaElement's MEDIA_ERR_NETWORK: the media was there and its download broke off. */
const MEDIA_ERR_NETWORK = 2;

/**
 * Whether a player whose engines all failed waits for its media (an outage) rather than giving up
 * on the title: the media answers 5xx or nothing, or it is there and the download broke off.
 */
export function isOutage(errorCode: number | null, probe: MediaProbe): boolean {
  if (probe !== "up") return probe === "down";
  return errorCode === MEDIA_ERR_NETWORK;
}

/**
 * Stalled this long, the player asks the media itself (the page cannot see the failing requests of
 * the browser's own HLS): when it answers 5xx or nothing, or the device is offline, the viewer is
 * told and the player retries; a stall on a slow link with the media there is not an outage.
 */
export const OUTAGE_STALL_MS = 3000;
