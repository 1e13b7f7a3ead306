/**
 * Placeholder sources for the built-in titles: an ffmpeg filter graph per media number N that
 * draws a per-N colour with scrolling stripes, N in seven-segment digits (drawbox only: no fonts),
 * a bouncing marker, a circling dot and a progress bar, with a per-N plucked pentatonic melody.
 * The graph is the source: its text (with the size, rate and duration) identifies it in cache keys.
 */
import type { SourceSpec } from "./source";

export interface PlaceholderOptions {
  /** Seconds (default 60). */
  seconds: number;
  /** Source height (default 720); width is 16:9, rounded to an even number. */
  height: number;
  fps: number;
  /**
   * What the seven-segment display shows: digits and "-" (default: the number N). Episodes show
   * "{title}-{episode}" (3-2 for 第2集 of title 3).
   */
  label?: string;
}

/** Per-number parameters: everything derives from N, so reruns are reproducible. */
export function placeholderParams(n: number) {
  const hue = (n * 137.508) % 360; // golden angle: neighbours get distant hues
  return {
    n,
    background: hslHex(hue, 0.55, 0.42),
    accent: hslHex((hue + 180) % 360, 0.7, 0.6),
    pattern: n % 4, // 0 vertical stripes →, 1 horizontal stripes ↓, 2 grid ↘, 3 vertical stripes ←
    stripes: 3 + (n % 5),
    /** Base note of the melody (Hz) and the step through the pentatonic scale. */
    note: 196 + ((n * 37) % 196),
    step: 1 + (n % 4),
  };
}

function hslHex(h: number, s: number, l: number): string {
  const k = (m: number) => (m + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (m: number) => l - a * Math.max(-1, Math.min(k(m) - 3, 9 - k(m), 1));
  const hex = (x: number) =>
    Math.round(x * 255)
      .toString(16)
      .padStart(2, "0");
  return `0x${hex(f(0))}${hex(f(8))}${hex(f(4))}`;
}

const even = (x: number) => 2 * Math.round(x / 2);

/** 16:9 width of a height, even. */
export function widthFor(height: number): number {
  return even((height * 16) / 9);
}

// Seven-segment digits in a 360-line frame: segment rectangles in a DW×DH cell.
const DW = 84;
const DH = 150;
const DT = 20;
const GAP = 28;
const SEGMENTS: Record<string, readonly [number, number, number, number]> = {
  a: [0, 0, DW, DT],
  b: [DW - DT, 0, DT, DH / 2 + DT / 2],
  c: [DW - DT, DH / 2 - DT / 2, DT, DH / 2 + DT / 2],
  d: [0, DH - DT, DW, DT],
  e: [0, DH / 2 - DT / 2, DT, DH / 2 + DT / 2],
  f: [0, 0, DT, DH / 2 + DT / 2],
  g: [0, DH / 2 - DT / 2, DW, DT],
};
const DIGITS: Record<string, string> = {
  "0": "abcdef",
  "1": "bc",
  "2": "abdeg",
  "3": "abcdg",
  "4": "bcfg",
  "5": "acdfg",
  "6": "acdefg",
  "7": "abc",
  "8": "abcdefg",
  "9": "abcdfg",
  "-": "g",
};

function box(x: number, y: number, w: number, h: number, color: string, thickness = "fill"): string {
  return `drawbox=x=${Math.round(x)}:y=${Math.round(y)}:w=${Math.round(w)}:h=${Math.round(h)}:c=${color}:t=${thickness}`;
}

/** drawbox filters for a label (digits and "-") centred on a W×H frame, on a dark panel, outlined. */
function numberFilters(text: string, W: number, H: number): string[] {
  if (!/^[0-9-]{1,12}$/.test(text)) throw new RangeError(`placeholder label "${text}": digits and "-" only`);
  const k = H / 360;
  const scale = k * Math.min(1, (640 - 80) / (text.length * DW + (text.length - 1) * GAP));
  const dw = DW * scale;
  const gap = GAP * scale;
  const total = text.length * dw + (text.length - 1) * gap;
  const x0 = (W - total) / 2;
  const y0 = (H - DH * scale) / 2 - 10 * k;
  const pad = 26 * k;
  const out = [box(x0 - pad, y0 - pad, total + 2 * pad, DH * scale + 2 * pad, "black@0.55")];
  const rects: Array<[number, number, number, number]> = [];
  [...text].forEach((ch, i) => {
    const shift = ch === "1" ? -(DW - DT) / 2 : 0; // a lone "1" is centred in its cell
    for (const seg of DIGITS[ch]) {
      const [sx, sy, sw, sh] = SEGMENTS[seg];
      rects.push([x0 + i * (dw + gap) + (sx + shift) * scale, y0 + sy * scale, sw * scale, sh * scale]);
    }
  });
  const o = 4 * k;
  for (const [x, y, w, h] of rects) out.push(box(x - o, y - o, w + 2 * o, h + 2 * o, "black"));
  for (const [x, y, w, h] of rects) out.push(box(x, y, w, h, "white"));
  return out;
}

/**
 * The scrolling background: a canvas one stripe period larger than the frame, drawn ONCE and
 * looped, then cropped at an offset that moves with the frame number (crop evaluates x/y per frame).
 */
function backgroundFilters(p: ReturnType<typeof placeholderParams>, W: number, H: number, fps: number, d: number): string {
  const periodX = even(W / p.stripes);
  const periodY = even(H / p.stripes);
  // Pixels per frame: 16 at 720p, so every rung (270p = ×3/8, 360p = ×1/2) moves its luma AND
  // chroma by whole pixels per frame (motion search then matches exactly; half-pixel chroma
  // motion made the 270p rung cost more than 360p).
  const step = Math.max(2, even(H / 45));
  const scrollX = p.pattern !== 1;
  const scrollY = p.pattern === 1 || p.pattern === 2;
  const cw = W + (scrollX ? periodX : 0);
  const ch = H + (scrollY ? periodY : 0);
  // A faint blurred-noise texture: detail whose bits grow with the picture area, as in real video,
  // so each rung of the ladder costs more than the one below (flat graphics alone do not).
  const filters = [`color=c=${p.background}:s=${cw}x${ch}:r=${fps}:d=1`, "noise=alls=8:allf=u", "boxblur=2:1"];
  if (p.pattern !== 1) {
    for (let x = 0; x < cw; x += periodX) filters.push(box(x, 0, periodX / 2, ch, "black@0.22"));
  }
  if (p.pattern === 1 || p.pattern === 2) {
    for (let y = 0; y < ch; y += periodY) filters.push(box(0, y + periodY / 2, cw, periodY / 2, "white@0.15"));
  }
  const x = !scrollX ? "0" : p.pattern === 3 ? `mod(n*${step}\\,${periodX})` : `${periodX}-mod(n*${step}\\,${periodX})`;
  const y = scrollY ? `${periodY}-mod(n*${step}\\,${periodY})` : "0";
  const frames = Math.round(d * fps);
  filters.push("trim=end_frame=1", `loop=loop=${frames - 1}:size=1:start=0`, `setpts=N/(${fps}*TB)`);
  filters.push(`crop=w=${W}:h=${H}:x='${x}':y='${y}'`);
  return filters.join(",");
}

/** The placeholder source of title n. */
export function placeholderSource(n: number, options: PlaceholderOptions): SourceSpec {
  const { seconds: d, height: H, fps } = options;
  if (!(d > 0) || !Number.isInteger(H) || H < 90 || H % 2 !== 0 || !(fps > 0)) {
    throw new RangeError(`bad placeholder options: ${JSON.stringify(options)}`);
  }
  const W = widthFor(H);
  const k = H / 360;
  const p = placeholderParams(n);
  const marker = even(40 * k);
  const dot = even(24 * k);
  const bar = even(8 * k);
  const radius = Math.round(130 * k);
  const base = [backgroundFilters(p, W, H, fps, d), ...numberFilters(options.label ?? String(n), W, H)].join(",");
  // Pentatonic steps (0 2 4 7 9 semitones), a new note every 0.5 s, plucked (exponential decay).
  const degree = `mod(floor(t*2)*${p.step}+${n}\\,5)`;
  const semitones = `if(eq(${degree}\\,0)\\,0\\,if(eq(${degree}\\,1)\\,2\\,if(eq(${degree}\\,2)\\,4\\,if(eq(${degree}\\,3)\\,7\\,9))))`;
  const melody = `0.3*sin(2*PI*${p.note}*pow(2\\,${semitones}/12)*t)*exp(-5*mod(t\\,0.5))`;
  const video = [
    `${base}[base]`,
    `color=c=${p.accent}:s=${marker}x${marker}:r=${fps}:d=${d}[marker]`,
    `color=c=white:s=${dot}x${dot}:r=${fps}:d=${d}[dot]`,
    `color=c=white:s=${W}x${bar}:r=${fps}:d=${d}[bar]`,
    // Marker bounces along the bottom (2 s per pass), a dot circles the number, the bar fills up.
    `[base][marker]overlay=x='(W-w)*abs(mod(t\\,4)-2)/2':y=H-${Math.round(64 * k)}:shortest=1[m1]`,
    `[m1][dot]overlay=x='W/2-w/2+${radius * 1.6}*cos(t*1.3)':y='H/2-h/2+${radius}*sin(t*1.3)':shortest=1[m2]`,
    `[m2][bar]overlay=x='-w+w*t/${d}':y=H-${bar}:shortest=1,format=yuv420p[out0]`,
  ].join(";");
  const audio = `aevalsrc=exprs='${melody}':s=48000:d=${d}`;
  return {
    inputs: ["-f", "lavfi", "-i", video, "-f", "lavfi", "-i", audio],
    video: "0:v",
    audio: "1:a",
    width: W,
    height: H,
    fps,
    duration: d,
    identity: `placeholder-v1:${video}:${audio}`,
  };
}
