/** The viewer's 弹幕 settings, remembered in localStorage (one JSON value). */
export type DanmakuArea = "quarter" | "half" | "full";
export type DanmakuDensity = "low" | "normal" | "high";
export type DanmakuFontSize = "small" | "medium" | "large";

export interface DanmakuSettings {
  on: boolean;
  /** 0.2–1. */
  opacity: number;
  area: DanmakuArea;
  density: DanmakuDensity;
  fontSize: DanmakuFontSize;
  /** Personal blocked words (matched like the server's, shared/danmaku/model.ts). */
  blocked: string[];
}

export const SETTINGS_KEY = "yingshi-danmaku";

export const DEFAULT_SETTINGS: DanmakuSettings = { on: true, opacity: 0.9, area: "half", density: "normal", fontSize: "medium", blocked: [] };

export const AREA_FRACTION: Record<DanmakuArea, number> = { quarter: 0.25, half: 0.5, full: 1 };
/** Most comments on screen at once. */
export const DENSITY_LIMIT: Record<DanmakuDensity, number> = { low: 25, normal: 60, high: 150 };
export const FONT_PX: Record<DanmakuFontSize, number> = { small: 18, medium: 24, large: 30 };

const pick = <T extends string>(value: unknown, options: Record<T, unknown>, fallback: T): T =>
  typeof value === "string" && Object.hasOwn(options, value) ? (value as T) : fallback;

/** Settings from stored JSON; anything missing or malformed takes its default. */
export function parseSettings(raw: string | null): DanmakuSettings {
  let value: Record<string, unknown> = {};
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (typeof parsed === "object" && parsed !== null) value = parsed as Record<string, unknown>;
  } catch {
    value = {};
  }
  const opacity = typeof value.opacity === "number" && Number.isFinite(value.opacity) ? Math.min(1, Math.max(0.2, value.opacity)) : DEFAULT_SETTINGS.opacity;
  const blocked = Array.isArray(value.blocked) ? value.blocked.filter((w): w is string => typeof w === "string" && w.trim() !== "").slice(0, 100) : [];
  return {
    on: typeof value.on === "boolean" ? value.on : DEFAULT_SETTINGS.on,
    opacity,
    area: pick(value.area, AREA_FRACTION, DEFAULT_SETTINGS.area),
    density: pick(value.density, DENSITY_LIMIT, DEFAULT_SETTINGS.density),
    fontSize: pick(value.fontSize, FONT_PX, DEFAULT_SETTINGS.fontSize),
    blocked,
  };
}

export function loadSettings(): DanmakuSettings {
  try {
    return parseSettings(localStorage.getItem(SETTINGS_KEY));
  } catch {
    return DEFAULT_SETTINGS;
  }
}

export function saveSettings(settings: DanmakuSettings): void {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // private mode or full storage: the settings last for this page only
  }
}
