/**
 * 概览's figures from per-day counts (UTC days, as the play counter and the 弹幕 counter keep
 * them): the last 30 days filled with zeros where nothing happened, the sums for today, 7 and
 * 30 days, and the bars of the chart the server draws as SVG. Pure.
 */
import { utcDay } from "../ranking";

export const CHART_DAYS = 30;

export interface DayCount {
  day: string;
  count: number;
}

export interface Windows {
  today: number;
  week: number;
  month: number;
}

/** The last `days` UTC days up to today, oldest first, each with its count (0 when absent). */
export function lastDays(rows: readonly { day: string; count: number }[], nowMs: number, days = CHART_DAYS): DayCount[] {
  const byDay = new Map(rows.map((r) => [r.day, r.count]));
  const out: DayCount[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const day = utcDay(nowMs - i * 86_400_000);
    out.push({ day, count: byDay.get(day) ?? 0 });
  }
  return out;
}

/** Today, the last 7 and the last 30 days of a lastDays() series. */
export function windowsOf(series: readonly DayCount[]): Windows {
  const sum = (n: number) => series.slice(-n).reduce((total, d) => total + d.count, 0);
  return { today: sum(1), week: sum(7), month: sum(30) };
}

/** The first UTC day of the 30-day window. */
export const firstDay = (nowMs: number, days = CHART_DAYS): string => utcDay(nowMs - (days - 1) * 86_400_000);

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  day: string;
  count: number;
}

export interface ChartGeometry {
  width: number;
  height: number;
  /** The plot's bottom (the bars stand on it). */
  baseline: number;
  max: number;
  bars: Bar[];
}

/** Bars of a series in a width × height box, with `bottom` pixels below for the day labels. */
export function barChart(series: readonly DayCount[], width = 600, height = 180, bottom = 20): ChartGeometry {
  const max = Math.max(1, ...series.map((d) => d.count));
  const plot = height - bottom;
  const step = width / Math.max(1, series.length);
  const barWidth = Math.max(1, step * 0.7);
  const bars = series.map((d, i) => {
    const h = Math.round((d.count / max) * (plot - 4) * 10) / 10;
    return {
      x: Math.round((i * step + (step - barWidth) / 2) * 10) / 10,
      y: Math.round((plot - h) * 10) / 10,
      width: Math.round(barWidth * 10) / 10,
      height: h,
      day: d.day,
      count: d.count,
    };
  });
  return { width, height, baseline: plot, max, bars };
}

/** "1.2 GB", "340 MB", "12 KB", "0 B" (1024-based, one decimal below 10). */
export function byteSize(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 || value >= 10 ? Math.round(value).toString() : value.toFixed(1);
  return `${shown} ${units[unit]}`;
}
