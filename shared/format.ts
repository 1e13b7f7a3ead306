/** Player time: h:mm:ss from one hour on, m:ss below (spec §9). */
export function formatTime(totalSeconds: number): string {
  if (!Number.isFinite(totalSeconds) || totalSeconds < 0) totalSeconds = 0;
  const s = Math.floor(totalSeconds);
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  const ss = String(seconds).padStart(2, "0");
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, "0")}:${ss}`;
  return `${minutes}:${ss}`;
}

/** Seconds of a catalogue duration ("02:15:30" or "45:00"). */
export function durationSeconds(duration: string): number {
  const parts = duration.split(":").map((p) => Number(p));
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => !Number.isInteger(p) || p < 0)) return 0;
  return parts.reduce((acc, part) => acc * 60 + part, 0);
}

/** ISO 8601 duration for structured data: "02:15:30" → "PT2H15M30S". */
export function isoDuration(duration: string): string {
  const total = durationSeconds(duration);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `PT${h ? `${h}H` : ""}${m ? `${m}M` : ""}${s || (!h && !m) ? `${s}S` : ""}`;
}

/** A view count as shown on cards: 1234 → "1234", 12345 → "1.2万". */
export function formatViews(views: number): string {
  if (views >= 10000) return `${(Math.floor(views / 1000) / 10).toFixed(1)}万`;
  return String(views);
}

/** A rating with one decimal: 9 → "9.0". */
export function formatRating(rating: number): string {
  return rating.toFixed(1);
}

/** A date as 2025年3月4日 (UTC, so server and browser agree). */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return `${d.getUTCFullYear()}年${d.getUTCMonth() + 1}月${d.getUTCDate()}日`;
}

/** Whole days from `fromIso` to `now`, at least 1 (the first day counts). */
export function daysSince(fromIso: string, now: number): number {
  const from = new Date(fromIso).getTime();
  if (Number.isNaN(from)) return 1;
  return Math.max(1, Math.floor((now - from) / 86_400_000) + 1);
}
