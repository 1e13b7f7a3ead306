/**
 * The player's automatic error beacon: on a fatal playback error (no engine left to fall back
 * to: usePlaybackFailure.ts) the page tells the worker once, POST /api/reports/failure
 * (worker/reports/api.ts), counted per title, episode and day for 概览's 播放失败. Fire and
 * forget: a lost beacon loses one count, never anything the viewer sees.
 */
export function sendFailureBeacon(titleId: string, episode: number): void {
  void fetch("/api/reports/failure", {
    method: "POST",
    keepalive: true,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ title: titleId, episode }),
  }).catch(() => {});
}
