/**
 * `npm run bench:watch`: 一起看 rooms of two and of ten headless Chromium members under slow 4G
 * (docs/performance.md has the latest figures; the room is worker/watch/room.ts, the members'
 * sync shared/player/watch/).
 *
 *  1. builds a 150 s bench clip (scripts/media/bench-clip.ts: 1080p source, the title's four
 *     renditions) and seeds it as video_001 (a film) and as episodes 1–4 of video_004 (a series)
 *     into a separate local state (.wrangler/bench-watch/), with the D1 migrations and the catalogue;
 *  2. serves the built site as production does (scripts/production-site.mjs: the deploy bundle in
 *     one workerd process behind the HTTPS/HTTP2 front) on https://127.0.0.1:$BENCH_WATCH_PORT (8796);
 *  3. gives each member its own slow 4G link (1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip):
 *     by default a CONNECT proxy per member whose tunnels cross one bottleneck of that link
 *     (scripts/bench-watch/link-proxy.ts, the front's link model, scripts/throttle.mjs) — the
 *     room's WebSocket included; `--throttle cdp`: Chromium's Network.emulateNetworkConditions
 *     per member page instead;
 *  4. per room size: one browser, one context per member (alternately a 390 px phone and a
 *     desktop); member 1 signs up, opens video_001 and creates the room with 一起看; the others
 *     open its short link one after another (their nickname remembered from an earlier visit, so
 *     joining needs no typing) —
 *       join time: Date.now() before the link is opened → the first frame presented while playing
 *       with the panel saying 已同步 (and the gap to member 1 at that frame);
 *     then member 1 seeks to 5 s and, after the room settles, every member's player is read four
 *     times a second for two minutes —
 *       drift: |member time − member 1's time| once a second (max, p95, share over 0.5 s, p95 per
 *       30 s, so a drift that grows shows), `waiting` events in the window;
 *     then rounds of actions, each by the next member in turn, as a viewer does them on the
 *     <video> (pause, seek while paused, play, seek while playing, 1.5×, 1×) —
 *       reaction: the action's moment in the actor's page → the matching event in each other
 *       member's page (pause, playing, seeked near the target, ratechange to the rate); per action
 *       the slowest member ("every member") and every member's own;
 *     then late joiners (fresh contexts) open the link and leave; then member 1 opens a room on
 *     video_004 episode 1, the others join it, and members in turn click the next episode in the
 *     episode grid (the browser caches cleared first: each episode is new to everyone) —
 *       reaction: → the first `playing` of the new episode's page;
 *  5. records the machine's load average (the machine may be shared) and writes
 *     bench-results/watch-*.json.
 *
 *   npm run bench:watch                                   2 and 10 members
 *   npm run bench:watch -- --members 10 --rounds 3 --drift-seconds 60 --late-joins 1 --episode-changes 2
 *   npm run bench:watch -- --throttle cdp
 *   npm run bench:watch -- --members 2 --timelines        each join's steps on the console
 *   npm run bench:watch -- --clip-seconds 60 --drift-seconds 30   a quick look (the video bench's 60 s clip)
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { driftSeries, median, percentile, positionAtTime, type PlayerSample } from "./figures";
import { startLinkProxy, type LinkProxy } from "./link-proxy";
import { PROBE, type ProbeEvent, type ProbeState } from "./probe";
import { CHROMIUM, CHROMIUM_FLAGS } from "../chromium";
import { MAX_RATE_NUDGE, MAX_SEEK_LEAD } from "../../shared/watch/protocol";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PORT = Number(process.env.BENCH_WATCH_PORT ?? 8796);
const STATE = path.join(root, ".wrangler", "bench-watch");
const FILM = { id: "video_001", media: [1] };
/** A series of the catalogue (4 episodes: media 4, 10402, 10403, 10404). */
const SERIES = { id: "video_004", media: [4, 10402, 10403, 10404] };
const SLOW_4G = { name: "slow 4G", downBps: 1_600_000, upBps: 750_000, rttMs: 150 };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const PASSWORD = "bench-watch-1";
/** Longest wait for a reaction (ms): a member that has not reacted by then never did. */
const REACTION_TIMEOUT_MS = 30_000;
const EPISODE_TIMEOUT_MS = 60_000;
const JOIN_TIMEOUT_MS = 120_000;

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const sizes = (option("members") ?? "2,10").split(",").map(Number);
const rounds = Number(option("rounds") ?? 5);
const driftSeconds = Number(option("drift-seconds") ?? 120);
const lateJoins = Number(option("late-joins") ?? 3);
const episodeChanges = Number(option("episode-changes") ?? 4);
const throttle = option("throttle") === "cdp" ? "cdp" : "proxy";
/** `--timelines`: each join's steps (media events, requests) on the console too; the JSON always has them. */
const showTimelines = process.argv.includes("--timelines");
/** The clip's length: two minutes of drift after the joins, and room for the seeks. */
const CLIP_SECONDS = Number(option("clip-seconds") ?? 150);

interface Site {
  baseURL: string;
  originURL: string;
  spki: string;
  setLink: (profile: null) => unknown;
  stop: () => Promise<void>;
}

interface Member {
  index: number;
  name: string;
  context: BrowserContext;
  page: Page;
  proxy: LinkProxy | null;
  phone: boolean;
  /** What the member's pages fetched: media segments per rendition, and the paths answered 404. */
  media: MemberMedia;
  /** The page's stream, script and WebSocket requests since the member's last join (the join's timeline). */
  fetched: Fetched[];
}

interface MemberMedia {
  segments: Record<string, number>;
  notFound: string[];
}

/** A request of the member's page (epoch ms; `end` null while under way), for the join's timeline. */
interface Fetched {
  path: string;
  start: number;
  end: number | null;
}

type ActionKind = "pause" | "play" | "seek" | "rate" | "episode";

interface ActionResult {
  kind: ActionKind;
  label: string;
  actor: number;
  /** ms from the action to each other member's reaction (null: none within the timeout). */
  reactions: Array<{ member: number; ms: number | null }>;
}

interface JoinResult {
  member: string;
  room: "film" | "series";
  phone: boolean;
  /** Link opened → first synced frame, ms (null: none within the timeout). */
  ms: number | null;
  /** Link opened → first frame at all, ms. */
  firstFrameMs: number | null;
  /** |member − member 1| at the first synced frame, s. */
  gap: number | null;
  /** What happened from the link to the synced frame: the media events and the requests, in s since the link was opened. */
  timeline: string[];
}

interface DriftResult {
  member: number;
  series: Array<{ second: number; drift: number; host: number; member: number }>;
  waiting: number;
}

interface RoomRun {
  members: number;
  joins: JoinResult[];
  drift: DriftResult[];
  actions: ActionResult[];
  load: { min: number; mean: number; max: number; samples: number[] };
  /** Member 1's own `waiting` events in the drift window (a stalled member 1 shows as everyone's drift). */
  hostWaiting: number;
  /** Each of member 1's stalls in the drift window: when (ms into it), how long, and its steps (joinTimeline). */
  hostStalls: Array<{ at: number; seconds: number; steps: string[] }>;
  /** Per member, over the whole run. */
  media: Array<{ member: string; phone: boolean } & MemberMedia>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const panel = (page: Page) => page.locator(".watch-panel");

async function withTimeout<T>(what: string, ms: number, fn: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([fn(), new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** A member: a context of its own on its own link, the probe installed, one page. */
async function newMember(browser: Browser, index: number, name: string): Promise<Member> {
  const phone = index % 2 === 1;
  const proxy = throttle === "proxy" ? await startLinkProxy(SLOW_4G) : null;
  const context = await browser.newContext({
    viewport: phone ? PHONE : DESKTOP,
    ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    ...(proxy ? { proxy: { server: proxy.server } } : {}),
  });
  // tsx (esbuild keepNames) wraps named functions in `__name(…)`: give the page that helper too.
  await context.addInitScript({ content: "globalThis.__name = (fn) => fn;" });
  await context.addInitScript(PROBE, name);
  const page = await context.newPage();
  // Where a member's page goes (the player moves on by itself at a title's end or after its lines failed).
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) console.log(`  [${name}] at ${new URL(frame.url()).pathname}`);
  });
  // Which renditions the member's player fetched (its segments' names: 270p-v-00001.m4s), and
  // what was missing (each path once).
  const media: MemberMedia = { segments: {}, notFound: [] };
  page.on("response", (response) => {
    const path = new URL(response.url()).pathname;
    const rendition = /^\/stream\/\d+\/(\d+p)-[^/]+-\d+\.m4s$/.exec(path)?.[1];
    if (rendition) media.segments[rendition] = (media.segments[rendition] ?? 0) + 1;
    if (response.status() === 404 && media.notFound.length < 20 && !media.notFound.includes(path)) media.notFound.push(path);
  });
  // The join's timeline: when each playlist, segment, script and the room's socket went and came.
  const fetched: Fetched[] = [];
  const pending = new Map<object, Fetched>();
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (!/^\/(stream|assets)\/|^\/api\/watch\//.test(path) || fetched.length > 2000) return;
    const entry = { path, start: Date.now(), end: null };
    fetched.push(entry);
    pending.set(request, entry);
  });
  const finished = (request: object) => {
    const entry = pending.get(request);
    if (entry) entry.end = Date.now();
    pending.delete(request);
  };
  page.on("requestfinished", finished);
  page.on("requestfailed", finished);
  page.on("websocket", (socket) => {
    const entry = { path: `ws ${new URL(socket.url()).pathname}`, start: Date.now(), end: null as number | null };
    fetched.push(entry);
    socket.once("framereceived", () => (entry.end = Date.now()));
  });
  page.on("pageerror", (error) => console.log(`  [${name}] page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") console.log(`  [${name}] console: ${message.text()}`);
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  // The browser's own estimate of the link (navigator.connection): the page's engine choice reads it.
  await cdp.send("Network.overrideNetworkState", {
    offline: false,
    latency: SLOW_4G.rttMs,
    downloadThroughput: SLOW_4G.downBps / 8,
    uploadThroughput: SLOW_4G.upBps / 8,
  });
  if (throttle === "cdp")
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: SLOW_4G.rttMs,
      downloadThroughput: SLOW_4G.downBps / 8,
      uploadThroughput: SLOW_4G.upBps / 8,
    });
  return { index, name, context, page, proxy, phone, media, fetched };
}

async function closeMember(member: Member): Promise<void> {
  await member.context.close();
  await member.proxy?.close();
}

const probeOf = (page: Page) => page.evaluate(() => (window as unknown as { __wb: ProbeState }).__wb);
const eventsSince = (page: Page, t0: number) =>
  page.evaluate((since) => (window as unknown as { __wb: ProbeState }).__wb.events.filter((e) => e.t >= since), t0);
const samplesBetween = (page: Page, from: number, to: number) =>
  page.evaluate(([a, b]) => (window as unknown as { __wb: ProbeState }).__wb.samples.filter((s) => s.t >= a && s.t <= b), [from, to] as const);

/** Signs member 1 up (through its page, so the session cookie is the browser's) and opens a room on `pathname` with 一起看. */
async function openRoom(host: Member, base: string, pathname: string, signUp: boolean): Promise<string> {
  await host.page.goto(`${base}${pathname}`, { waitUntil: "load", timeout: JOIN_TIMEOUT_MS });
  if (signUp) {
    const email = `bench-watch-${Date.now()}-${process.pid}@example.com`;
    const status = await host.page.evaluate(
      async ({ email, password }) =>
        (
          await fetch("/api/auth/sign-up", {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ email, password, confirmPassword: password }),
          })
        ).status,
      { email, password: PASSWORD },
    );
    if (status !== 200) throw new Error(`sign-up answered ${status}`);
    await host.page.reload({ waitUntil: "load", timeout: JOIN_TIMEOUT_MS });
  }
  await host.page.locator("html[data-hydrated]").waitFor({ timeout: JOIN_TIMEOUT_MS });
  // Clicked through the DOM: a pointer click at the button's place can land on a card the page's
  // late layout moved there (a navigation away), and how fast a person clicks is not measured here.
  // The button is in the server's HTML before the player's island hydrates: click until the panel opens.
  const create = panel(host.page).getByRole("button", { name: "创建房间", exact: true });
  const openBy = Date.now() + JOIN_TIMEOUT_MS;
  while (Date.now() < openBy && (await create.count()) === 0) {
    await host.page
      .locator("button.watch-open")
      .evaluate((button: HTMLButtonElement) => button.click(), undefined, { timeout: 5000 })
      .catch(() => undefined);
    await create.waitFor({ timeout: 3000 }).catch(() => undefined);
  }
  await create.waitFor({ timeout: JOIN_TIMEOUT_MS }).catch(async (error: unknown) => {
    await host.page.screenshot({ path: path.join(root, "bench-results", "watch-failure.png") }).catch(() => undefined);
    throw new Error(
      `no 创建房间 at ${host.page.url()} (the panel says: ${await panel(host.page)
        .textContent()
        .catch(() => "nothing")})`,
      { cause: error },
    );
  });
  const link = panel(host.page).locator(".watch-link");
  // Again after a failed try (the panel's notice says so; the loaded machine's front may answer 502).
  for (let i = 0; i < 3 && (await link.count()) === 0; i++) {
    await create.evaluate((button: HTMLButtonElement) => button.click()).catch(() => undefined);
    await link.waitFor({ timeout: 20_000 }).catch(async () =>
      console.log(
        `  room not opened: ${await panel(host.page)
          .textContent()
          .catch(() => "")}`,
      ),
    );
  }
  await link.waitFor({ timeout: JOIN_TIMEOUT_MS }).catch(async (error: unknown) => {
    throw new Error(
      `no room link at ${host.page.url()} (the panel says: ${await panel(host.page)
        .textContent()
        .catch(() => "nothing")})`,
      { cause: error },
    );
  });
  const code = new URL(await link.inputValue()).pathname.slice("/w/".length);
  await host.page.locator('.watch-panel[data-synced="true"]').waitFor({ timeout: JOIN_TIMEOUT_MS });
  return code;
}

/** A member opens the room's short link: join time to the first synced frame. */
async function join(member: Member, host: Member, base: string, code: string, room: "film" | "series"): Promise<JoinResult> {
  member.fetched.length = 0;
  const opened = Date.now();
  await member.page.goto(`${base}/w/${code}`, { waitUntil: "commit", timeout: JOIN_TIMEOUT_MS });
  const deadline = opened + JOIN_TIMEOUT_MS;
  let probe: ProbeState | null = null;
  while (Date.now() < deadline) {
    probe = await probeOf(member.page).catch(() => null);
    if (probe?.syncedFrame) break;
    await sleep(200);
  }
  const synced = probe?.syncedFrame ?? null;
  let gap: number | null = null;
  if (synced) {
    await sleep(600);
    const hostSamples = await samplesBetween(host.page, synced.t - 1000, synced.t + 1000);
    const hostAt = positionAtTime(hostSamples, synced.t, 300);
    gap = hostAt === null ? null : Math.abs(synced.mediaTime - hostAt);
  }
  return {
    member: member.name,
    room,
    phone: member.phone,
    ms: synced ? Math.round(synced.t - opened) : null,
    firstFrameMs: probe?.firstFrame ? Math.round(probe.firstFrame - opened) : null,
    gap,
    timeline: joinTimeline(opened, synced?.t ?? Date.now(), probe?.events ?? [], member.fetched),
  };
}

/**
 * A join's steps (or a stall's), in order, in s since the link was opened (since `opened`): each media event of the page's
 * <video> (with its media time) and each request (stream files by name, scripts counted, the
 * room's socket: its first frame received), up to the synced frame.
 */
function joinTimeline(opened: number, until: number, events: ProbeEvent[], fetched: Fetched[]): string[] {
  const s = (t: number) => ((t - opened) / 1000).toFixed(2);
  const lines: Array<[number, string]> = [];
  for (const e of events) if (e.t >= opened && e.t <= until) lines.push([e.t, `${s(e.t)} ${e.type} @${e.ct.toFixed(1)}`]);
  const scripts = fetched.filter((f) => f.path.startsWith("/assets/") && f.path.endsWith(".js"));
  if (scripts.length > 0) {
    const last = Math.max(...scripts.map((f) => f.end ?? until));
    lines.push([scripts[0].start, `${s(scripts[0].start)}–${s(last)} ${scripts.length} scripts`]);
  }
  for (const f of fetched)
    if (!f.path.startsWith("/assets/") && f.start <= until)
      lines.push([f.start, `${s(f.start)}–${f.end === null ? "…" : s(f.end)} ${f.path.replace(/^\/stream\/\d+\//, "")}`]);
  return lines.sort((a, b) => a[0] - b[0]).map(([, line]) => line);
}

/** Whether `e` is a member's reaction to the action. */
function reacts(kind: ActionKind, target: number | string, e: ProbeEvent): boolean {
  switch (kind) {
    case "pause":
      return e.type === "pause";
    case "play":
      return e.type === "playing";
    case "seek":
      // A member that must fetch the new position aims ahead of the room by its seek time
      // (shared/watch/protocol.ts seekTarget): up to MAX_SEEK_LEAD past the target.
      return e.type === "seeked" && e.ct > Number(target) - 3 && e.ct < Number(target) + 3 + MAX_SEEK_LEAD;
    case "rate":
      // The member may be in a drift correction (at most ±MAX_RATE_NUDGE of the room's rate).
      return e.type === "ratechange" && Math.abs(e.rate - Number(target)) <= Number(target) * (MAX_RATE_NUDGE + 0.01);
    case "episode":
      // The first `playing` on the new episode's page, wherever the room has got to by then (a
      // member whose page took over 10 s to load starts past 10 s: an earlier `ct < 10` missed it).
      return e.type === "playing" && e.path === target;
  }
}

/** The actor does `kind` on its <video> (or clicks the episode link); the moment it did, epoch ms. */
async function act(actor: Page, kind: ActionKind, value: number | string): Promise<number> {
  return actor.evaluate(
    ({ kind, value }) => {
      const t = performance.timeOrigin + performance.now();
      if (kind === "episode") {
        document.querySelector<HTMLAnchorElement>(`.episodes-grid a[href="${String(value)}"]`)?.click();
        return t;
      }
      const v = document.querySelector<HTMLVideoElement>("video.player-video");
      if (!v) throw new Error("no video");
      if (kind === "pause") v.pause();
      else if (kind === "play") void v.play();
      else if (kind === "seek") v.currentTime = Number(value);
      else if (kind === "rate") v.playbackRate = Number(value);
      return t;
    },
    { kind, value },
  );
}

/** Waits for every other member's reaction to an action done at `t0`. */
async function reactions(members: Member[], actor: number, kind: ActionKind, target: number | string, t0: number): Promise<ActionResult["reactions"]> {
  const timeout = kind === "episode" ? EPISODE_TIMEOUT_MS : REACTION_TIMEOUT_MS;
  const pending = new Map(members.filter((m) => m.index !== actor).map((m) => [m.index, m]));
  const out: ActionResult["reactions"] = [];
  const deadline = Date.now() + timeout;
  while (pending.size > 0 && Date.now() < deadline) {
    await Promise.all(
      [...pending.values()].map(async (m) => {
        const events = await eventsSince(m.page, t0).catch(() => [] as ProbeEvent[]);
        const hit = events.find((e) => reacts(kind, target, e));
        if (hit) {
          out.push({ member: m.index, ms: Math.round(hit.t - t0) });
          pending.delete(m.index);
        }
      }),
    );
    if (pending.size > 0) await sleep(100);
  }
  for (const m of pending.values()) out.push({ member: m.index, ms: null });
  return out.sort((a, b) => a.member - b.member);
}

/** Until every member's player has data at its position (playing when the room plays), at most `ms`; then a moment for the sync's corrections. */
async function settle(members: Member[], playing: boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (const m of members) {
    while (Date.now() < deadline) {
      const ready = await m.page
        .evaluate((playing) => {
          const v = document.querySelector<HTMLVideoElement>("video.player-video");
          return !!v && !v.seeking && v.readyState >= 3 && v.paused === !playing;
        }, playing)
        .catch(() => false);
      if (ready) break;
      await sleep(200);
    }
  }
  await sleep(1500);
}

const roomPosition = (page: Page) => page.evaluate(() => document.querySelector<HTMLVideoElement>("video.player-video")?.currentTime ?? 0);

/**
 * Before a join: a room within 30 s of the clip's end is taken back to 2 s by member 1 (on a short
 * clip the joins one after another outlast it, and a member joining a room at its end never sees
 * a synced frame while playing).
 */
async function rewindNearTheEnd(inRoom: Member[], host: Member): Promise<void> {
  if ((await roomPosition(host.page)) < CLIP_SECONDS - 30) return;
  const t0 = await act(host.page, "seek", 2);
  await reactions(inRoom, host.index, "seek", 2, t0);
  await settle(inRoom, true);
}

/** A deterministic pseudo-random sequence (seek targets). */
function lcg(seed: number) {
  let s = seed;
  return () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

async function runRoom(browser: Browser, site: Site, size: number): Promise<RoomRun> {
  const base = site.baseURL;
  const load: number[] = [os.loadavg()[0]];
  const loadTimer = setInterval(() => load.push(os.loadavg()[0]), 10_000);
  const members: Member[] = [];
  const result: RoomRun = {
    members: size,
    joins: [],
    drift: [],
    actions: [],
    load: { min: 0, mean: 0, max: 0, samples: load },
    hostWaiting: 0,
    hostStalls: [],
    media: [],
  };
  try {
    for (let i = 0; i < size; i++) members.push(await newMember(browser, i, i === 0 ? "房主" : `成员${i + 1}`));
    const host = members[0];
    // Member 1's account: a new one per room size (each run's contexts are new).
    const code = await openRoom(host, base, `/video/${FILM.id}`, true);
    console.log(`\n${size} members: room ${code} on ${FILM.id}`);
    for (const m of members.slice(1)) {
      await rewindNearTheEnd(members.slice(0, m.index), host);
      const j = await join(m, host, base, code, "film");
      result.joins.push(j);
      console.log(
        `  join ${m.name} (${m.phone ? "phone" : "desktop"}): synced frame ${fmt(j.ms)}, first frame ${fmt(j.firstFrameMs)}, gap ${j.gap?.toFixed(2) ?? "—"} s`,
      );
      if (showTimelines) console.log(j.timeline.map((line) => `      ${line}`).join("\n"));
    }

    // Drift: from 5 s at 1×, two minutes of playback.
    const driftStart = await act(host.page, "seek", 5);
    await reactions(members, 0, "seek", 5, driftStart);
    await settle(members, true);
    await sleep(3000);
    const from = Date.now();
    console.log(`  drift: ${driftSeconds} s of playback…`);
    await sleep(driftSeconds * 1000 + 500);
    const hostSamples: PlayerSample[] = await samplesBetween(host.page, from - 1000, from + driftSeconds * 1000 + 500);
    result.hostWaiting = (await eventsSince(host.page, from)).filter((e) => e.type === "waiting" && e.t <= from + driftSeconds * 1000).length;
    console.log(`  ${host.name}: waiting ${result.hostWaiting} in the window`);
    // Each of member 1's stalls in the window, step by step: from 5 s before its `waiting` to its next `playing`.
    const hostEvents = await eventsSince(host.page, from);
    for (const w of hostEvents.filter((e) => e.type === "waiting" && e.t <= from + driftSeconds * 1000)) {
      const resumed = hostEvents.find((e) => e.type === "playing" && e.t > w.t)?.t ?? Date.now();
      const steps = joinTimeline(
        w.t - 5000,
        resumed,
        hostEvents,
        host.fetched.filter((f) => f.start >= w.t - 5000),
      );
      result.hostStalls.push({ at: Math.round(w.t - from), seconds: (resumed - w.t) / 1000, steps });
      console.log(`  ${host.name} stall at ${((w.t - from) / 1000).toFixed(1)} s for ${((resumed - w.t) / 1000).toFixed(1)} s (times from 5 s before it):`);
      if (showTimelines) console.log(steps.map((line) => `      ${line}`).join("\n"));
    }
    for (const m of members.slice(1)) {
      const samples = await samplesBetween(m.page, from - 1000, from + driftSeconds * 1000 + 500);
      const events = await eventsSince(m.page, from);
      const series = driftSeries(hostSamples, samples, from, driftSeconds);
      const waiting = events.filter((e) => e.type === "waiting" && e.t <= from + driftSeconds * 1000).length;
      result.drift.push({ member: m.index, series, waiting });
      const drifts = series.map((s) => s.drift);
      console.log(`  drift ${m.name}: max ${fmtS(Math.max(...drifts))}, p95 ${fmtS(percentile(drifts, 95))}, ${series.length} samples, waiting ${waiting}`);
    }

    // Actions, each by the next member in turn.
    const random = lcg(size * 7919);
    let actor = 0;
    for (let round = 1; round <= rounds; round++) {
      const steps: Array<{ kind: ActionKind; label: string; value: () => Promise<number> }> = [
        { kind: "pause", label: "pause", value: () => Promise.resolve(0) },
        { kind: "seek", label: "seek (paused)", value: async () => seekTarget(await roomPosition(members[actor].page), random) },
        { kind: "play", label: "play", value: () => Promise.resolve(0) },
        { kind: "seek", label: "seek (playing)", value: async () => seekTarget(await roomPosition(members[actor].page), random) },
        { kind: "rate", label: "rate 1.5×", value: () => Promise.resolve(1.5) },
        { kind: "rate", label: "rate 1×", value: () => Promise.resolve(1) },
      ];
      for (const step of steps) {
        const who = members[actor];
        const value = await step.value();
        const t0 = await act(who.page, step.kind, value);
        const r = await reactions(members, who.index, step.kind, value, t0);
        result.actions.push({ kind: step.kind, label: step.label, actor: who.index, reactions: r });
        const slowest = r.some((x) => x.ms === null) ? null : Math.max(...r.map((x) => x.ms ?? 0));
        console.log(
          `  round ${round} ${step.label.padEnd(15)} by ${who.name}: every member ${fmt(slowest)}${
            r.some((x) => x.ms === null)
              ? ` (never: ${r
                  .filter((x) => x.ms === null)
                  .map((x) => members[x.member].name)
                  .join(", ")})`
              : ""
          }`,
        );
        await settle(members, step.kind !== "pause" && step.label !== "seek (paused)");
        actor = (actor + 1) % size;
      }
    }

    // Late joiners: fresh contexts open the link while the room plays, and leave.
    for (let i = 0; i < lateJoins; i++) {
      const late = await newMember(browser, size + i, `迟到${i + 1}`);
      try {
        await rewindNearTheEnd(members, host);
        const j = await join(late, host, base, code, "film");
        result.joins.push(j);
        console.log(`  late join ${late.name} (${late.phone ? "phone" : "desktop"}): synced frame ${fmt(j.ms)}, gap ${j.gap?.toFixed(2) ?? "—"} s`);
        if (showTimelines) console.log(j.timeline.map((line) => `      ${line}`).join("\n"));
      } finally {
        await closeMember(late);
      }
      await sleep(1000);
    }

    // A series: a new room on episode 1, then episode changes by members in turn.
    if (episodeChanges > 0) {
      const seriesCode = await openRoom(host, base, `/video/${SERIES.id}/1`, false);
      console.log(`  room ${seriesCode} on ${SERIES.id}`);
      for (const m of members.slice(1)) {
        const j = await join(m, host, base, seriesCode, "series");
        result.joins.push(j);
        console.log(`  join ${m.name}: synced frame ${fmt(j.ms)}`);
        if (showTimelines) console.log(j.timeline.map((line) => `      ${line}`).join("\n"));
      }
      await settle(members, true);
      let episode = 1;
      for (let i = 0; i < episodeChanges; i++) {
        const next = (episode % SERIES.media.length) + 1;
        for (const m of members) {
          const cdp = await m.context.newCDPSession(m.page);
          await cdp.send("Network.clearBrowserCache");
          await cdp.detach();
        }
        const who = members[actor];
        const target = `/video/${SERIES.id}/${next}`;
        const t0 = await act(who.page, "episode", target);
        const r = await reactions(members, who.index, "episode", target, t0);
        result.actions.push({ kind: "episode", label: `episode ${episode}→${next}`, actor: who.index, reactions: r });
        const slowest = r.some((x) => x.ms === null) ? null : Math.max(...r.map((x) => x.ms ?? 0));
        console.log(`  episode ${episode}→${next} by ${who.name}: every member ${fmt(slowest)}`);
        episode = next;
        await settle(members, true, 40_000);
        actor = (actor + 1) % size;
      }
    }
  } finally {
    clearInterval(loadTimer);
    for (const m of members) await closeMember(m).catch(() => undefined);
  }
  for (const m of members) {
    result.media.push({ member: m.name, phone: m.phone, ...m.media });
    const renditions = Object.entries(m.media.segments).sort(([a], [b]) => parseInt(a) - parseInt(b));
    console.log(
      `  ${m.name} (${m.phone ? "phone" : "desktop"}) segments: ${renditions.map(([r, c]) => `${r} ${c}`).join(", ") || "none"}${m.media.notFound.length ? `; 404: ${m.media.notFound.join(" ")}` : ""}`,
    );
  }
  load.push(os.loadavg()[0]);
  result.load = { min: Math.min(...load), mean: load.reduce((a, b) => a + b, 0) / load.length, max: Math.max(...load), samples: load };
  return result;
}

/** A seek target in the clip (10 s from its start, 30 s from its end) at least 20 s from `from` — a third of that range on a short clip, where 20 s may not be there. */
function seekTarget(from: number, random: () => number): number {
  const away = Math.min(20, (CLIP_SECONDS - 40) / 3);
  for (;;) {
    const to = Math.round((10 + random() * (CLIP_SECONDS - 40)) * 10) / 10;
    if (Math.abs(to - from) >= away) return to;
  }
}

const fmt = (ms: number | null | undefined) => (ms === null || ms === undefined ? "—" : `${(ms / 1000).toFixed(2)} s`);
const fmtS = (s: number | null) => (s === null || !Number.isFinite(s) ? "—" : `${s.toFixed(3)} s`);

function summarise(run: RoomRun): string[] {
  const lines: string[] = [];
  lines.push(
    `\n### ${run.members} members (load average ${run.load.min.toFixed(1)}–${run.load.max.toFixed(1)}, mean ${run.load.mean.toFixed(1)} on ${os.cpus().length} CPUs)\n`,
  );
  lines.push("| action | n | every member: median | every member: p95 | per member: median | per member: p95 | never reached |");
  lines.push("|---|---|---|---|---|---|---|");
  for (const label of [...new Set(run.actions.map((a) => (a.kind === "episode" ? "episode change" : a.label)))]) {
    const set = run.actions.filter((a) => (a.kind === "episode" ? "episode change" : a.label) === label);
    const slowest = set.filter((a) => a.reactions.every((r) => r.ms !== null)).map((a) => Math.max(...a.reactions.map((r) => r.ms ?? 0)));
    const each = set.flatMap((a) => a.reactions.map((r) => r.ms)).filter((ms): ms is number => ms !== null);
    const never = set.reduce((n, a) => n + a.reactions.filter((r) => r.ms === null).length, 0);
    lines.push(
      `| ${label} | ${set.length} | ${fmt(median(slowest))} | ${fmt(percentile(slowest, 95))} | ${fmt(median(each))} | ${fmt(percentile(each, 95))} | ${never} |`,
    );
  }
  const all = run.drift.flatMap((d) => d.series.map((s) => s.drift));
  const windows = [0, 30, 60, 90].filter((w) => w < driftSeconds);
  const windowP95 = windows.map((w) =>
    percentile(
      run.drift.flatMap((d) => d.series.filter((s) => s.second >= w && s.second < w + 30).map((s) => s.drift)),
      95,
    ),
  );
  lines.push("");
  lines.push(
    `drift over ${driftSeconds} s (|member − member 1|, once a second, ${run.drift.length} member(s), ${all.length} samples): max ${fmtS(all.length ? Math.max(...all) : null)}, ` +
      `p95 ${fmtS(percentile(all, 95))}, median ${fmtS(median(all))}, over 0.5 s ${all.filter((d) => d > 0.5).length}; p95 per 30 s: ${windowP95.map(fmtS).join(" / ")}; ` +
      `waiting events ${run.drift.reduce((n, d) => n + d.waiting, 0)}`,
  );
  const joins = run.joins.map((j) => j.ms).filter((ms): ms is number => ms !== null);
  const gaps = run.joins.map((j) => j.gap).filter((g): g is number => g !== null);
  lines.push(
    `join (link opened → first synced frame, ${run.joins.length} joins${run.joins.some((j) => j.ms === null) ? `, ${run.joins.filter((j) => j.ms === null).length} never synced` : ""}): ` +
      `median ${fmt(median(joins))}, p95 ${fmt(percentile(joins, 95))}; gap to member 1 at that frame median ${fmtS(median(gaps))}, max ${fmtS(gaps.length ? Math.max(...gaps) : null)}`,
  );
  return lines;
}

async function main(): Promise<void> {
  const { buildBenchClip } = await import("../media/bench-clip");
  const { seedTitles } = await import("../media/seed");
  const clip = await buildBenchClip({ seconds: CLIP_SECONDS });
  const build = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error("vite build failed");
  await seedTitles(
    [...FILM.media, ...SERIES.media].map((n) => ({ n, dir: clip.dir })),
    console.log,
    path.join(STATE, "v3"),
  );
  const prepareLocalModule: string = "../prepare-local.mjs";
  const { applyLocalMigrations, importLocalCatalogue } = (await import(prepareLocalModule)) as {
    applyLocalMigrations: (o: { log: (line: string) => void; persistPath: string }) => Promise<void>;
    importLocalCatalogue: (o: { log: (line: string) => void; persistPath: string }) => Promise<unknown>;
  };
  await applyLocalMigrations({ log: console.log, persistPath: path.join(STATE, "v3") });
  await importLocalCatalogue({ log: console.log, persistPath: path.join(STATE, "v3") });

  const productionSite: string = "../production-site.mjs";
  const { startProductionSite } = (await import(productionSite)) as {
    startProductionSite: (o: { port: number; state: string }) => Promise<Site>;
  };
  const site = await startProductionSite({ port: PORT, state: STATE });
  site.setLink(null);
  console.log(
    `serving ${site.baseURL} in front of the deploy bundle; each member on its own ${SLOW_4G.name} (${throttle === "proxy" ? "a link proxy per member" : "CDP emulation"})`,
  );
  for (let i = 0; i < 2; i++) await (await fetch(`${site.originURL}/video/${FILM.id}`)).text();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      ...CHROMIUM_FLAGS,
      // Every member's page plays: none may be throttled as a background tab.
      "--disable-background-timer-throttling",
      "--disable-renderer-backgrounding",
      "--disable-backgrounding-occluded-windows",
      `--ignore-certificate-errors-spki-list=${site.spki}`,
    ],
  });
  const runs: RoomRun[] = [];
  fs.mkdirSync(path.join(root, "bench-results"), { recursive: true });
  const out = path.join(root, "bench-results", `watch-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  try {
    for (const size of sizes) {
      runs.push(await withTimeout(`${size} members`, 45 * 60_000, () => runRoom(browser, site, size)));
      // Written after each room size: a run stopped during the next one keeps these figures.
      fs.writeFileSync(out, JSON.stringify({ throttle, rounds, driftSeconds, lateJoins, episodeChanges, runs }, null, 2));
      console.log(summarise(runs[runs.length - 1]).join("\n"));
    }
  } finally {
    await browser.close();
    await site.stop();
  }
  const lines = [
    `一起看 bench: ${CLIP_SECONDS} s 1080p clip (four renditions), Debian Chromium, each member on its own ${SLOW_4G.name} ` +
      `(${SLOW_4G.downBps / 1e6} Mbit/s down, ${SLOW_4G.upBps / 1e3} kbit/s up, ${SLOW_4G.rttMs} ms; ${throttle === "proxy" ? "a link proxy per member" : "CDP emulation"}), ` +
      `${rounds} round(s) of actions, ${episodeChanges} episode change(s), ${lateJoins} late joiner(s)`,
    ...runs.flatMap(summarise),
  ];
  console.log(lines.join("\n"));
  console.log(`\nfigures in ${path.relative(root, out)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
