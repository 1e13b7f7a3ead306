/**
 * ?t= of a shared link (docs/decisions/0094-share-moment.md): whole seconds from the start, as
 * 从当前时间分享 writes them. Anything else (negative, fractional text, units, huge) is ignored.
 */
export const MAX_START_SECONDS = 86_400;

export function parseStartTime(param: string | null): number | null {
  if (param === null || !/^\d{1,5}$/.test(param)) return null;
  const t = Number(param);
  return t > 0 && t <= MAX_START_SECONDS ? t : null;
}

/** The link of this page at `seconds` (whole, rounded down): `/video/{id}[/{n}]?t=…` on `origin`. */
export function momentUrl(origin: string, path: string, seconds: number): string {
  const t = Math.max(0, Math.floor(seconds));
  return t > 0 ? `${origin}${path}?t=${t}` : `${origin}${path}`;
}
