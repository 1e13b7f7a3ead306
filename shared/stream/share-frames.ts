/**
 * Link-preview frames of a title (docs/decisions/0098-share-frame.md): the packer writes one
 * SHARE_FRAME_WIDTH-wide JPEG every SHARE_FRAME_INTERVAL seconds as /stream/{n}/frame-{kkkkk}.jpg
 * (frame k = the picture at k × interval s). A `?t=` link's og:image (GET /share-image/{id}?t=…)
 * is the frame nearest to t; a title packed without them falls back to its cover.
 */
export const SHARE_FRAME_INTERVAL = 10;
export const SHARE_FRAME_WIDTH = 640;

/** frame-00000.jpg … : the contract's name of frame k. */
export function shareFrameName(k: number): string {
  return `frame-${String(k).padStart(5, "0")}.jpg`;
}

/** How many frames a title of `duration` seconds has: one at every multiple of the interval below the end. */
export function shareFrameCount(duration: number): number {
  return Math.max(1, Math.ceil(duration / SHARE_FRAME_INTERVAL));
}

/** The frame nearest to `t` seconds (past the end: the last one). */
export function nearestShareFrame(t: number, duration: number): number {
  return Math.min(Math.max(0, Math.round(t / SHARE_FRAME_INTERVAL)), shareFrameCount(duration) - 1);
}

/** The link-preview image path of a `?t=` link: the title's frame route, with the episode when the URL names one. */
export function shareImagePath(id: string, t: number, episode: number | null): string {
  return `/share-image/${id}?t=${t}${episode === null ? "" : `&e=${episode}`}`;
}
