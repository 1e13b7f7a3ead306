/**
 * Minimal WebVTT (W3C WebVTT) writing and parsing for the files under /stream/{n}/: the zh-CN
 * subtitles and the storyboard cues. Cue text is kept as written (no markup parsing).
 */

export interface VttCue {
  /** Start and end in seconds. */
  start: number;
  end: number;
  text: string;
}

export interface VttFile {
  /** Header lines after "WEBVTT" (e.g. X-TIMESTAMP-MAP=…), before the first blank line. */
  header: string[];
  cues: VttCue[];
}

export class VttError extends Error {
  override name = "VttError";
}

/** hh:mm:ss.mmm (hours always written, so long titles never need another format). */
export function formatVttTime(seconds: number): string {
  if (!(seconds >= 0) || !Number.isFinite(seconds)) throw new RangeError(`bad WebVTT time ${seconds}`);
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const pad = (v: number, n = 2) => String(v).padStart(n, "0");
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** Parses `mm:ss.ttt` or `hh:mm:ss.ttt` into seconds, or null. */
export function parseVttTime(text: string): number | null {
  const match = /^(?:([0-9]{2,}):)?([0-5][0-9]):([0-5][0-9])\.([0-9]{3})$/.exec(text);
  if (!match) return null;
  const [, h, m, s, ms] = match;
  return (h ? Number(h) * 3600 : 0) + Number(m) * 60 + Number(s) + Number(ms) / 1000;
}

export function writeVtt(cues: readonly VttCue[], header: readonly string[] = []): string {
  const parts = [["WEBVTT", ...header].join("\n")];
  for (const cue of cues) {
    if (!(cue.end > cue.start)) throw new RangeError(`a cue must end after it starts: ${cue.start}–${cue.end}`);
    if (cue.text.trim() === "" || /\n\s*\n/.test(cue.text) || cue.text.includes("-->")) {
      throw new RangeError(`cue text must be non-empty, without blank lines or "-->": ${JSON.stringify(cue.text)}`);
    }
    parts.push(`${formatVttTime(cue.start)} --> ${formatVttTime(cue.end)}\n${cue.text}`);
  }
  return parts.join("\n\n") + "\n";
}

/** Parses a WebVTT file: the header lines and every cue (identifiers and settings are dropped). */
export function parseVtt(text: string): VttFile {
  const blocks = text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/);
  const first = blocks[0].split("\n");
  if (!/^WEBVTT(?:[ \t].*)?$/.test(first[0])) throw new VttError("not a WebVTT file (no WEBVTT signature)");
  const file: VttFile = { header: first.slice(1).filter((l) => l !== ""), cues: [] };
  for (const block of blocks.slice(1)) {
    const lines = block.split("\n").filter((l) => l !== "");
    if (lines.length === 0) continue;
    if (/^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(lines[0])) continue;
    const timingAt = lines.findIndex((l) => l.includes("-->"));
    if (timingAt < 0 || timingAt > 1) throw new VttError(`a cue block without timings: ${lines[0]}`);
    const [startText, rest] = lines[timingAt].split("-->").map((s) => s.trim());
    const start = parseVttTime(startText);
    const end = parseVttTime((rest ?? "").split(/[ \t]+/)[0]);
    if (start === null || end === null || end < start) throw new VttError(`bad cue timings: ${lines[timingAt]}`);
    file.cues.push({ start, end, text: lines.slice(timingAt + 1).join("\n") });
  }
  return file;
}

/**
 * The cue shown at time t (start ≤ t < end) in cues sorted by start and not overlapping,
 * by binary search; -1 between cues or outside them.
 */
export function cueIndexAt(cues: readonly { start: number; end: number }[], t: number): number {
  let lo = 0;
  let hi = cues.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const cue = cues[mid];
    if (t < cue.start) hi = mid - 1;
    else if (t >= cue.end) lo = mid + 1;
    else return mid;
  }
  return -1;
}
