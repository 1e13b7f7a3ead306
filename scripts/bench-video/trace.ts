/**
 * What the page's main thread did (`npm run bench:video -- --input-only --trace`): a Chromium
 * performance trace of the INP page (scripts/bench-video/input.ts, measureInp) and the long tasks
 * in it, each with the work it spent its time on (self time by trace event, with the script, the
 * element count or the event type where the trace says it). Times are from the document's
 * navigationStart, as the page's own performance.now() counts.
 */

/** The categories of a DevTools performance recording, plus the task boundaries, script compilation and fonts. */
export const TRACE_CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.timeline.frame",
  "toplevel",
  "blink.user_timing",
  "loading",
  "v8.execute",
  "disabled-by-default-v8.compile",
  "latencyInfo",
  "fonts",
];

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
}

/** A complete slice (a trace's "X" event, or a "B"/"E" pair joined). */
interface Slice {
  name: string;
  ts: number;
  dur: number;
  args: Record<string, unknown>;
}

export interface LongTask {
  /** From navigationStart, ms. */
  startMs: number;
  durationMs: number;
  /** Where the task's time went: self time by what did it (highest first), ms. */
  work: Array<{ what: string; selfMs: number }>;
}

export interface TraceSummary {
  /** The page's main thread was found (its navigationStart, or its first ParseHTML). */
  found: boolean;
  longTasks: LongTask[];
  /** The input events the page's main thread dispatched (touchstart, pointerdown, click …), from navigationStart, ms. */
  inputs: Array<{ type: string; atMs: number; durationMs: number }>;
  /** First paint / first contentful paint as the trace marks them, from navigationStart, ms. */
  firstPaintMs: number | null;
  firstContentfulPaintMs: number | null;
}

/** Names of the slices that delimit one task of a thread's scheduler. */
const TASK_NAMES = new Set(["ThreadControllerImpl::RunTask", "RunTask"]);

/** A trace arg as text ("?" when it is not a string or a number). */
const text = (value: unknown, missing = "?"): string => (typeof value === "string" || typeof value === "number" ? String(value) : missing);

const record = (value: unknown): Record<string, unknown> => (value && typeof value === "object" ? (value as Record<string, unknown>) : {});

/** The slices of one thread: "X" events as they are, "B"/"E" pairs joined (their args merged). */
function slicesOf(events: readonly TraceEvent[]): Slice[] {
  const slices: Slice[] = [];
  const open: TraceEvent[] = [];
  for (const e of [...events].sort((a, b) => a.ts - b.ts)) {
    if (e.ph === "X") slices.push({ name: e.name, ts: e.ts, dur: e.dur ?? 0, args: record(e.args) });
    else if (e.ph === "B") open.push(e);
    else if (e.ph === "E") {
      const begin = open.pop();
      if (begin) slices.push({ name: begin.name, ts: begin.ts, dur: e.ts - begin.ts, args: { ...record(begin.args), ...record(e.args) } });
    }
  }
  return slices;
}

/** A script's file name (its hashed asset name, or "inline" for the document's own scripts). */
function fileOf(url: unknown, page: string): string {
  if (typeof url !== "string" || url === "") return "";
  if (url === page || url.startsWith(`${page}?`)) return "inline";
  try {
    return new URL(url).pathname.split("/").pop() ?? url;
  } catch {
    return url;
  }
}

/** What a slice did, as specific as its args allow. */
function describe(slice: Slice, page: string): string {
  const data = record(slice.args.data);
  const begin = record(slice.args.beginData);
  switch (slice.name) {
    case "EvaluateScript":
    case "v8.compile":
    case "v8.compileModule":
    case "v8.evaluateModule":
    case "v8.produceCache":
    case "FunctionCall": {
      const file = fileOf(data.url ?? data.fileName ?? slice.args.fileName, page);
      const fn = typeof data.functionName === "string" && data.functionName ? ` ${data.functionName}` : "";
      return file || fn ? `${slice.name} ${file}${fn}` : slice.name;
    }
    case "ParseHTML":
      return `ParseHTML (lines ${text(begin.startLine)}–${text(record(slice.args.endData).endLine)})`;
    case "EventDispatch":
      return `EventDispatch ${text(data.type, "")}`;
    case "TimerFire":
    case "FireAnimationFrame":
    case "FireIdleCallback":
      return slice.name;
    case "UpdateLayoutTree":
    case "RecalculateStyles":
      return `${slice.name} (${text(record(slice.args.elementCount ? slice.args : data).elementCount)} elements)`;
    case "Layout":
      return `Layout (${text(begin.dirtyObjects)} of ${text(begin.totalObjects)} objects)`;
    case "ParseAuthorStyleSheet":
      return `ParseAuthorStyleSheet ${fileOf(record(data.styleSheetUrl ? data : slice.args).styleSheetUrl, page)}`;
    default:
      return slice.name;
  }
}

/** The long tasks of the page's main thread between fromMs and toMs (from navigationStart), and the page's input events. */
export function summarizeTrace(json: string, pageUrl: string, options: { fromMs: number; toMs: number; minMs: number }): TraceSummary {
  const parsed = JSON.parse(json) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const mainThreads = new Set(
    events.filter((e) => e.ph === "M" && e.name === "thread_name" && record(e.args).name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`),
  );
  // The document's navigationStart names its URL; else its first ParseHTML.
  const navigation =
    events.find((e) => e.name === "navigationStart" && text(record(record(e.args).data).documentLoaderURL, "").startsWith(pageUrl)) ??
    events.find((e) => e.name === "ParseHTML" && text(record(record(e.args).beginData).url, "").startsWith(pageUrl));
  const empty: TraceSummary = { found: false, longTasks: [], inputs: [], firstPaintMs: null, firstContentfulPaintMs: null };
  if (!navigation) return empty;
  const thread = mainThreads.has(`${navigation.pid}:${navigation.tid}`)
    ? { pid: navigation.pid, tid: navigation.tid }
    : // navigationStart may be emitted on another thread of the renderer: its process's main thread.
      (() => {
        const main = [...mainThreads].find((key) => key.startsWith(`${navigation.pid}:`));
        return main ? { pid: navigation.pid, tid: Number(main.split(":")[1]) } : null;
      })();
  if (!thread) return empty;
  const t0 = navigation.ts;
  const ms = (us: number) => Math.round((us - t0) / 100) / 10;
  const slices = slicesOf(events.filter((e) => e.pid === thread.pid && e.tid === thread.tid && e.ph !== "M"));

  // The outermost task slices (a task may be nested in another's name, e.g. RunTask inside ThreadControllerImpl::RunTask).
  const tasks = slices.filter((s) => TASK_NAMES.has(s.name)).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const outer: Slice[] = [];
  for (const task of tasks) {
    const last = outer[outer.length - 1];
    if (!last || task.ts >= last.ts + last.dur) outer.push(task);
  }
  const from = t0 + options.fromMs * 1000;
  const to = t0 + options.toMs * 1000;
  const longTasks: LongTask[] = [];
  for (const task of outer) {
    if (task.dur < options.minMs * 1000 || task.ts + task.dur < from || task.ts > to) continue;
    // Self time of every slice inside the task (children nested by time), summed by what it did.
    const inside = slices.filter((s) => s !== task && s.ts >= task.ts && s.ts + s.dur <= task.ts + task.dur).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    const self = new Map<string, number>();
    const stack: Array<{ slice: Slice; what: string; children: number }> = [{ slice: task, what: "(task, not attributed)", children: 0 }];
    const close = () => {
      const done = stack.pop()!;
      self.set(done.what, (self.get(done.what) ?? 0) + Math.max(0, done.slice.dur - done.children));
      if (stack.length > 0) stack[stack.length - 1].children += done.slice.dur;
    };
    for (const slice of inside) {
      while (stack.length > 1 && slice.ts >= stack[stack.length - 1].slice.ts + stack[stack.length - 1].slice.dur) close();
      stack.push({ slice, what: TASK_NAMES.has(slice.name) ? "(task, not attributed)" : describe(slice, pageUrl), children: 0 });
    }
    while (stack.length > 0) close();
    longTasks.push({
      startMs: ms(task.ts),
      durationMs: Math.round(task.dur / 100) / 10,
      work: [...self.entries()]
        .map(([what, us]) => ({ what, selfMs: Math.round(us / 100) / 10 }))
        .filter((w) => w.selfMs >= 1)
        .sort((a, b) => b.selfMs - a.selfMs)
        .slice(0, 8),
    });
  }
  const inputs = slices
    .filter((s) => s.name === "EventDispatch" && /^(touch|pointer|click|mouse|key)/.test(text(record(s.args.data).type, "")))
    .map((s) => ({ type: text(record(s.args.data).type, ""), atMs: ms(s.ts), durationMs: Math.round(s.dur / 100) / 10 }));
  const mark = (name: string) => {
    const e = events.find((x) => x.name === name && x.pid === thread.pid && x.ts >= t0);
    return e ? ms(e.ts) : null;
  };
  return { found: true, longTasks, inputs, firstPaintMs: mark("firstPaint"), firstContentfulPaintMs: mark("firstContentfulPaint") };
}

/** The summary as lines for the console. */
export function printTrace(summary: TraceSummary, label: string): string {
  if (!summary.found) return `${label}: the page's main thread was not found in the trace`;
  const lines = [`${label}: first paint ${summary.firstPaintMs ?? "—"} ms, first contentful paint ${summary.firstContentfulPaintMs ?? "—"} ms`];
  lines.push(`  inputs: ${summary.inputs.map((i) => `${i.type} ${i.atMs} (${i.durationMs} ms)`).join(", ") || "none"}`);
  for (const task of summary.longTasks)
    lines.push(`  task at ${task.startMs} ms, ${task.durationMs} ms: ${task.work.map((w) => `${w.what} ${w.selfMs}`).join("; ")}`);
  return lines.join("\n");
}
