/**
 * Sample 弹幕 for the built-in titles, so a fresh site shows what the feature looks like: a few
 * dozen per video, the same every time (seeded by the video id). Half fall in the first 20 s
 * (the local clips are that long; openings draw the most comments anyway), the rest spread over
 * the whole running time. Stored once per room by worker/danmaku/room.ts unless
 * DANMAKU_SAMPLES is "off".
 */
import { DANMAKU_COLORS, DANMAKU_MODES, roundTime, type DanmakuComment } from "./model";

/** Author id of the sample comments (no account has it: real ids are UUIDs). */
export const SAMPLE_AUTHOR = "sample";
export const SAMPLES_PER_VIDEO = 36;

const PHRASES = [
  "前方高能",
  "来了来了",
  "打卡",
  "这段配乐绝了",
  "画面好美",
  "第一次看，期待",
  "二刷了，还是好看",
  "演技在线",
  "名场面",
  "哈哈哈哈哈",
  "泪目",
  "这里伏笔",
  "镜头语言满分",
  "有人一起看吗",
  "空降成功",
  "弹幕护体",
  "太真实了",
  "主角好帅",
  "这个转场好评",
  "收藏了",
];

/** Seconds of a catalogue duration "HH:MM:SS" or "MM:SS" (0 when malformed). */
export function durationSeconds(text: string): number {
  const parts = text.split(":").map(Number);
  if (parts.length < 2 || parts.some((n) => !Number.isInteger(n) || n < 0)) return 0;
  return parts.reduce((total, n) => total * 60 + n, 0);
}

/** A small deterministic generator (mulberry32) seeded from a string. */
function generator(seedText: string): () => number {
  let seed = 0;
  for (const ch of seedText) seed = (Math.imul(seed, 31) + ch.codePointAt(0)!) | 0;
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The sample comments of a video (without ids; `created` = `now`). */
export function sampleComments(videoId: string, runningSeconds: number, now: number): Array<Omit<DanmakuComment, "id">> {
  const random = generator(videoId);
  const span = Math.max(20, runningSeconds);
  return Array.from({ length: SAMPLES_PER_VIDEO }, (_, i) => {
    const time = i % 2 === 0 ? (i / SAMPLES_PER_VIDEO) * 20 + random() : random() * span;
    const r = random();
    return {
      time: roundTime(Math.min(time, span)),
      text: PHRASES[Math.floor(random() * PHRASES.length)],
      mode: r < 0.8 ? DANMAKU_MODES[0] : r < 0.9 ? DANMAKU_MODES[1] : DANMAKU_MODES[2],
      color: random() < 0.7 ? DANMAKU_COLORS[0] : DANMAKU_COLORS[1 + Math.floor(random() * (DANMAKU_COLORS.length - 1))],
      author: SAMPLE_AUTHOR,
      created: now,
    };
  });
}
