/**
 * The early controls of a player page (part of its head script, page-head.ts): from the first
 * paint until the player has hydrated, the server's controls answer on the server's <video>.
 * - Play/pause, 重新播放, mute, the volume and progress sliders, a tap or click on the picture
 *   (double tap on a side third seeks ∓10 s, double click is fullscreen), fullscreen and the
 *   keyboard shortcuts act on the element at once, and the clock, the buttons' icons and names
 *   and the sliders follow the element.
 * - Any other button (清晰度, 字幕, speed, 弹幕, favourite, share …) shows that it heard the tap
 *   (`data-heard`, aria-busy) and is clicked again once its code is there: a player control when
 *   the player takes over (EarlyInput.handOver, called by VideoPlayer.tsx), a control of the page
 *   when the page has hydrated (<html data-hydrated>).
 * Everything is listened to on `window` while capturing, so it runs before React's own listeners
 * and stops the events it answers: no input is applied twice. Once the player has taken over (or
 * the page, for the page's buttons) these listeners step aside. docs/decisions/0017-early-input.md.
 */
import { clockText, fullscreenLabel, muteLabel, playLabel, withKey } from "../../shared/playback/control-labels";
import { playerConfig } from "../../shared/playback/config";
import { isTouchPointer, tapOutcome, tapZone, type Tap } from "../../shared/playback/touch-gestures";
import { EARLY_INPUT_FLAG, type EarlyDecisions, type EarlyInput } from "../../shared/player/early-input";
import { EXIT_FULLSCREEN_PATH, FULLSCREEN_PATH, MUTED_PATH, PAUSE_PATH, PLAY_PATH, VOLUME_PATH } from "../../shared/player/icon-paths";
import { commandFor } from "../../shared/player/shortcuts";
import { DEFAULT_VOLUME, parseVolume } from "../../shared/stored-prefs";
import { storedPref } from "../stored-pref";

/** The element events the server's controls follow (media events do not bubble: captured on the way down). */
const MEDIA_EVENTS = ["play", "pause", "playing", "timeupdate", "durationchange", "loadedmetadata", "volumechange", "seeked", "emptied"];

/**
 * The events of a tap or a press with which React, when one reaches it on a part of the page it
 * has not hydrated yet, hydrates that part at once, in the event's own task (its click, which
 * the early controls stop, would otherwise find no handler). In the player the early controls
 * answer the tap themselves: React need not see these there until the player has taken over,
 * and its hydration goes on in a transition, a few milliseconds at a time. (Hydrating the page in
 * the tap's task held that tap's next paint 113–313 ms on a 4× slower CPU: docs/performance.md.)
 */
const HYDRATING_EVENTS = ["pointerdown", "pointerup", "touchstart", "touchend", "mousedown", "mouseup"];

export function installEarlyControls(): void {
  const decisions: EarlyDecisions = { paused: null, sound: null, seeked: false };
  /** Taps held for the player, and for the page. */
  const forPlayer: HTMLElement[] = [];
  const forPage: HTMLElement[] = [];
  let live = false;
  let pointerType = "mouse";
  let lastTap: Tap | null = null;
  let tapTimer: ReturnType<typeof setTimeout> | undefined;

  const box = () => document.querySelector<HTMLElement>(".player");
  const video = () => box()?.querySelector("video") ?? null;
  const pageHydrated = () => document.documentElement.dataset.hydrated === "true";

  const setButton = (button: Element | null | undefined, label: string, key: "K" | "M" | "F", path: string) => {
    if (!button) return;
    button.setAttribute("aria-label", label);
    button.setAttribute("title", withKey(label, key));
    button.querySelector("path")?.setAttribute("d", path);
  };

  /** The server's controls show what the element does. */
  const show = () => {
    const b = box();
    const v = video();
    if (live || !b || !v) return;
    const playing = !v.paused && !v.ended;
    setButton(b.querySelector("[data-act=play]"), playLabel(playing), "K", playing ? PAUSE_PATH : PLAY_PATH);
    setButton(b.querySelector("[data-act=mute]"), muteLabel(v.muted), "M", v.muted || v.volume === 0 ? MUTED_PATH : VOLUME_PATH);
    const full = document.fullscreenElement === b;
    setButton(b.querySelector("[data-act=fullscreen]"), fullscreenLabel(full), "F", full ? EXIT_FULLSCREEN_PATH : FULLSCREEN_PATH);
    const duration = Number.isFinite(v.duration) ? v.duration : 0;
    const time = Math.min(v.currentTime, duration);
    const clock = b.querySelector(".player-time");
    if (clock) clock.textContent = clockText(v.currentTime, duration);
    const progress = b.querySelector<HTMLInputElement>(".player-progress");
    if (progress) {
      progress.max = String(duration);
      progress.value = String(time);
      progress.setAttribute("aria-valuetext", clockText(v.currentTime, duration));
      progress.style.setProperty("--fill", `${duration > 0 ? (time / duration) * 100 : 0}%`);
    }
    const volume = b.querySelector<HTMLInputElement>(".player-volume-range");
    if (volume) {
      const shown = v.muted ? 0 : v.volume;
      volume.value = String(shown);
      volume.setAttribute("aria-valuetext", `${Math.round(shown * 100)}%`);
      volume.style.setProperty("--fill", `${shown * 100}%`);
    }
  };

  const togglePlay = (v: HTMLVideoElement) => {
    if (v.paused || v.ended) void v.play().catch(() => {});
    else v.pause();
    decisions.paused = v.paused;
  };
  const seekBy = (v: HTMLVideoElement, delta: number) => {
    const end = Number.isFinite(v.duration) ? v.duration : Infinity;
    v.currentTime = Math.min(end, Math.max(0, v.currentTime + delta));
    decisions.seeked = true;
  };
  const setSound = (v: HTMLVideoElement, volume: number, muted: boolean) => {
    v.volume = Math.round(Math.min(1, Math.max(0, volume)) * 10) / 10;
    v.muted = muted || v.volume === 0;
    decisions.sound = { muted: v.muted, volume: v.volume };
  };
  /** The stored volume (the server's element plays at 1 until the player applies it). */
  const storedVolume = () => parseVolume(storedPref("volume"));
  const toggleMute = (v: HTMLVideoElement) => {
    // Until the player applies the stored volume the element plays at 1: unmuting uses the stored one.
    if (v.muted || v.volume === 0) setSound(v, (v.volume === 1 ? storedVolume() : v.volume) || DEFAULT_VOLUME, false);
    else setSound(v, v.volume, true);
  };
  const toggleFullscreen = (b: HTMLElement, v: HTMLVideoElement & { webkitEnterFullscreen?: () => void }) => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else if (document.fullscreenEnabled) void b.requestFullscreen().catch(() => {});
    else v.webkitEnterFullscreen?.();
  };

  /** Holds a tap for the code that will answer it, showing that it was heard. */
  const hold = (button: HTMLElement, queue: HTMLElement[]) => {
    button.setAttribute("data-heard", "");
    button.setAttribute("aria-busy", "true");
    queue.push(button);
  };
  const replay = (queue: HTMLElement[]) => {
    for (const button of queue.splice(0)) {
      button.removeAttribute("data-heard");
      button.removeAttribute("aria-busy");
      if (button.isConnected) button.click();
    }
  };

  const onPointerDown = (e: PointerEvent) => {
    pointerType = e.pointerType;
  };

  const onClick = (e: MouseEvent) => {
    const target = e.target as Element | null;
    const b = box();
    const inPlayer = !!b && !!target && b.contains(target);
    if (inPlayer ? live : pageHydrated()) return;
    const v = video();
    if (inPlayer && b && v && target === v) {
      e.stopImmediatePropagation();
      if (!isTouchPointer(pointerType)) return togglePlay(v);
      const rect = v.getBoundingClientRect();
      const tap: Tap = { at: e.timeStamp, zone: tapZone(e.clientX, rect.left, rect.width) };
      const outcome = tapOutcome(lastTap, tap);
      lastTap = tap;
      clearTimeout(tapTimer);
      if (outcome.kind === "seek") seekBy(v, outcome.seconds);
      else tapTimer = setTimeout(() => !live && togglePlay(v), outcome.deferMs);
      return;
    }
    const button = target?.closest<HTMLElement>("button[type=button]");
    if (!button) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    const act = inPlayer ? button.dataset.act : undefined;
    if (b && v && act) {
      if (act === "play") togglePlay(v);
      else if (act === "restart") {
        v.currentTime = 0;
        decisions.seeked = true;
        void v.play().catch(() => {});
        decisions.paused = false;
      } else if (act === "mute") toggleMute(v);
      else if (act === "fullscreen") toggleFullscreen(b, v);
      return;
    }
    if (!button.hasAttribute("data-heard")) hold(button, inPlayer ? forPlayer : forPage);
  };

  const onDoubleClick = (e: MouseEvent) => {
    const b = box();
    const v = video();
    if (live || !b || !v || e.target !== v || isTouchPointer(pointerType)) return;
    e.stopImmediatePropagation();
    toggleFullscreen(b, v);
  };

  const onInput = (e: Event) => {
    const input = e.target as HTMLInputElement;
    const v = video();
    if (live || !v || !box()?.contains(input)) return;
    e.stopImmediatePropagation();
    if (input.classList.contains("player-progress")) {
      v.currentTime = Number(input.value);
      decisions.seeked = true;
    } else if (input.classList.contains("player-volume-range")) setSound(v, Number(input.value), Number(input.value) === 0);
  };

  const onKey = (e: KeyboardEvent) => {
    const b = box();
    const v = video();
    if (live || !b || !v) return;
    const command = commandFor(e);
    if (!command) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    const { seekStep, volumeStep } = playerConfig;
    if (command === "toggle") togglePlay(v);
    else if (command === "back") seekBy(v, -seekStep);
    else if (command === "forward") seekBy(v, seekStep);
    else if (command === "volumeUp") setSound(v, v.volume + volumeStep, false);
    else if (command === "volumeDown") setSound(v, v.volume - volumeStep, v.muted);
    else if (command === "mute") toggleMute(v);
    else if (command === "fullscreen") toggleFullscreen(b, v);
    else {
      const subtitles = b.querySelector<HTMLElement>(".player-subtitles");
      if (subtitles) hold(subtitles, forPlayer);
    }
  };

  /** On the document, after the boot script's own listeners there (page-boot.ts): before React's, which are on the document too. */
  const keepFromReact = (e: Event) => {
    const target = e.target as Node | null;
    if (!live && target && box()?.contains(target)) e.stopImmediatePropagation();
  };
  for (const type of HYDRATING_EVENTS) document.addEventListener(type, keepFromReact, { capture: true, passive: true });

  const listeners: [string, EventListener][] = [
    ["pointerdown", onPointerDown as EventListener],
    ["click", onClick as EventListener],
    ["dblclick", onDoubleClick as EventListener],
    ["input", onInput],
    ["keydown", onKey as EventListener],
    ["fullscreenchange", show],
    ...MEDIA_EVENTS.map((type): [string, EventListener] => [type, show]),
  ];
  for (const [type, listener] of listeners) window.addEventListener(type, listener, true);

  // The page's own buttons are answered once the page has hydrated.
  const pageWatch = new MutationObserver(() => {
    if (!pageHydrated()) return;
    pageWatch.disconnect();
    replay(forPage);
  });
  pageWatch.observe(document.documentElement, { attributes: true, attributeFilter: ["data-hydrated"] });

  const early: EarlyInput = {
    handOver() {
      // A later player (a client-side navigation) starts afresh: nothing was decided for it.
      if (live) return { paused: null, sound: null, seeked: false };
      live = true;
      clearTimeout(tapTimer);
      for (const [type, listener] of listeners) if (type !== "click") window.removeEventListener(type, listener, true);
      for (const type of HYDRATING_EVENTS) document.removeEventListener(type, keepFromReact, true);
      replay(forPlayer);
      return decisions;
    },
  };
  (window as unknown as Record<string, EarlyInput>)[EARLY_INPUT_FLAG] = early;
}
