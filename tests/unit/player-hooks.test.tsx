// @vitest-environment happy-dom
// The player's gesture and memory hooks mounted in React (happy-dom), driven by the events a
// browser sends: what the pure rules (tests/unit/touch-gestures.test.ts, playback-memory.test.ts)
// cannot show — the timers, the event wiring and the state the hooks hand to the player.
import { EMPTY_LISTS } from "../../shared/series-lists";
import { act, cleanup, fireEvent, render, renderHook } from "@testing-library/react";
import { createRef, type ReactNode, type RefObject } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LibraryContext } from "../../shared/components/library-context";
import { DEFAULT_PREFS, type Library, type LibraryApi } from "../../shared/library";
import { playerConfig } from "../../shared/playback/config";
import { usePlaybackMemory } from "../../shared/player/usePlaybackMemory";
import { useTouchGestures, type TouchGestureActions } from "../../shared/player/useTouchGestures";

beforeEach(() => {
  vi.useFakeTimers();
});
/** Moves the fake clock, with React's updates from the timers applied (a synchronous act). */
function advance(ms: number): void {
  void act(() => {
    vi.advanceTimersByTime(ms);
  });
}
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

// ---- useTouchGestures ----------------------------------------------------------------------

/** A 300 px wide picture with the hook's handlers; every action the hook takes, in order. */
function mountPicture(hidden = false, onLongPressAt?: TouchGestureActions["onLongPressAt"]) {
  const calls: string[] = [];
  const actions: TouchGestureActions = {
    onLongPressAt,
    onTap: (wasHidden) => calls.push(`tap${wasHidden ? " (hidden)" : ""}`),
    onSeekBy: (seconds) => calls.push(`seek ${seconds}`),
    onHoldStart: () => calls.push("hold start"),
    onHoldEnd: () => calls.push("hold end"),
    controlsHidden: () => hidden,
  };
  let hint: string | null = null;
  function Picture() {
    const gestures = useTouchGestures(actions);
    hint = gestures.hint?.text ?? null;
    return <div data-testid="picture" {...gestures.handlers} />;
  }
  const view = render(<Picture />);
  const picture = view.getByTestId("picture");
  picture.getBoundingClientRect = () => ({ left: 0, top: 0, width: 300, height: 170, right: 300, bottom: 170, x: 0, y: 0, toJSON: () => ({}) });
  const at = (x: number, pointerType = "touch") => ({ pointerType, isPrimary: true, clientX: x, clientY: 80 });
  const tap = (x: number, pointerType = "touch") => {
    fireEvent.pointerDown(picture, at(x, pointerType));
    fireEvent.pointerUp(picture, at(x, pointerType));
  };
  return { calls, picture, at, tap, hint: () => hint };
}

describe("useTouchGestures in a rendered player", () => {
  it("a tap in the middle acts at once; with the controls hidden the player is told so", () => {
    const hidden = mountPicture(true);
    hidden.tap(150);
    expect(hidden.calls).toEqual(["tap (hidden)"]);
  });

  it("a double tap on the right third seeks +10 s with a hint, and no single tap is left behind", () => {
    const p = mountPicture();
    p.tap(280);
    p.tap(280);
    expect(p.calls).toEqual([`seek ${playerConfig.seekStep}`]);
    expect(p.hint()).toBe(`快进 ${playerConfig.seekStep} 秒`);
    advance(playerConfig.doubleTapMs + 1);
    expect(p.calls).toEqual([`seek ${playerConfig.seekStep}`]);
    // The hint goes after its time.
    advance(playerConfig.hintMs);
    expect(p.hint()).toBeNull();
  });

  it("a single tap on a side waits out the double-tap time, then acts once", () => {
    const p = mountPicture();
    p.tap(20);
    expect(p.calls).toEqual([]);
    advance(playerConfig.doubleTapMs);
    expect(p.calls).toEqual(["tap"]);
  });

  it("a long press plays faster while held (倍速播放中) and stops on release, without a tap", () => {
    const p = mountPicture();
    fireEvent.pointerDown(p.picture, p.at(150));
    advance(playerConfig.longPressMs);
    expect(p.calls).toEqual(["hold start"]);
    expect(p.hint()).toBe(`${playerConfig.longPressRate}× 倍速播放中`);
    fireEvent.pointerUp(p.picture, p.at(150));
    expect(p.calls).toEqual(["hold start", "hold end"]);
    expect(p.hint()).toBeNull();
  });

  it("a long press on a 弹幕 is taken by 举报 (shared/player/VideoPlayer.tsx): no faster playback, and lifting the finger is no tap", () => {
    const pressed: string[] = [];
    const p = mountPicture(false, (x, y) => {
      pressed.push(`${x},${y}`);
      return true;
    });
    fireEvent.pointerDown(p.picture, p.at(150));
    advance(playerConfig.longPressMs);
    expect(pressed).toEqual(["150,80"]);
    fireEvent.pointerUp(p.picture, p.at(150));
    advance(playerConfig.doubleTapMs);
    expect(p.calls).toEqual([]);
    expect(p.hint()).toBeNull();
  });

  it("where there is no 弹幕 under the finger the long press plays faster as before", () => {
    const q = mountPicture(false, () => false);
    fireEvent.pointerDown(q.picture, q.at(150));
    advance(playerConfig.longPressMs);
    fireEvent.pointerUp(q.picture, q.at(150));
    expect(q.calls).toEqual(["hold start", "hold end"]);
  });

  it("a touch that moves beyond the slop is neither a tap nor a long press", () => {
    const p = mountPicture();
    fireEvent.pointerDown(p.picture, p.at(150));
    fireEvent.pointerMove(p.picture, p.at(150 + playerConfig.touchSlopPx + 5));
    advance(playerConfig.longPressMs * 2);
    fireEvent.pointerUp(p.picture, p.at(150 + playerConfig.touchSlopPx + 5));
    advance(playerConfig.doubleTapMs);
    expect(p.calls).toEqual([]);
  });

  it("mouse input is left to the click handlers, and a long touch never opens the context menu", () => {
    const p = mountPicture();
    p.tap(280, "mouse");
    p.tap(280, "mouse");
    advance(playerConfig.longPressMs);
    expect(p.calls).toEqual([]);
    fireEvent.pointerDown(p.picture, p.at(150));
    expect(fireEvent.contextMenu(p.picture)).toBe(false); // default prevented
  });
});

// ---- usePlaybackMemory ---------------------------------------------------------------------

/** A <video> whose time and duration the test sets (happy-dom does not play media). */
function fakeVideo(duration = 600): HTMLVideoElement {
  const video = document.createElement("video");
  let time = 0;
  Object.defineProperty(video, "duration", { get: () => duration });
  Object.defineProperty(video, "currentTime", { get: () => time, set: (t: number) => void (time = t) });
  return video;
}

interface Saved {
  id: string;
  position: number;
  duration: number;
  episode: number | undefined;
}

function library(history: Library["history"] = []): { api: LibraryApi; saved: Saved[] } {
  const saved: Saved[] = [];
  const api: LibraryApi = {
    library: { favourites: [], history },
    prefs: { ...DEFAULT_PREFS, volume: 0.4, muted: true, rate: 1.5 },
    ready: true,
    toggleFavourite: () => {},
    savePosition: (id, position, duration, episode) => saved.push({ id, position, duration, episode }),
    setPrefs: () => {},
    lists: EMPTY_LISTS,
    toggleList: () => false,
    markSeen: () => {},
  };
  return { api, saved };
}

function mountMemory(api: LibraryApi, video: HTMLVideoElement, episode = 1) {
  const ref: RefObject<HTMLVideoElement | null> = createRef<HTMLVideoElement | null>();
  (ref as { current: HTMLVideoElement | null }).current = video;
  const onReady = vi.fn();
  const wrapper = ({ children }: { children: ReactNode }) => <LibraryContext.Provider value={api}>{children}</LibraryContext.Provider>;
  const hook = renderHook(() => usePlaybackMemory(ref, "video_003", episode, onReady), { wrapper });
  return { hook, onReady };
}

describe("usePlaybackMemory in a rendered player", () => {
  it("applies the stored preferences, then starts playback once", () => {
    const video = fakeVideo();
    const { api } = library();
    const { onReady, hook } = mountMemory(api, video);
    expect([video.volume, video.muted, video.playbackRate]).toEqual([0.4, true, 1.5]);
    expect(onReady).toHaveBeenCalledTimes(1);
    hook.rerender();
    expect(onReady).toHaveBeenCalledTimes(1);
  });

  it("saves the episode's position every few seconds of playback, on pause and when the page goes", () => {
    const video = fakeVideo();
    const { api, saved } = library();
    mountMemory(api, video, 2);
    video.currentTime = playerConfig.saveEverySeconds - 1;
    video.dispatchEvent(new Event("timeupdate"));
    expect(saved).toEqual([]);
    video.currentTime = playerConfig.saveEverySeconds;
    video.dispatchEvent(new Event("timeupdate"));
    expect(saved).toEqual([{ id: "video_003", position: playerConfig.saveEverySeconds, duration: 600, episode: 2 }]);
    video.currentTime = 7;
    video.dispatchEvent(new Event("pause"));
    video.currentTime = 8;
    window.dispatchEvent(new Event("pagehide"));
    expect(saved.map((s) => s.position)).toEqual([playerConfig.saveEverySeconds, 7, 8]);
  });

  it("offers 从 m:ss 继续播放 for a saved position; playing from the start meanwhile keeps it; the offer times out", () => {
    const video = fakeVideo();
    const { api, saved } = library([{ id: "video_003", position: 125, duration: 600, updatedAt: 1 }]);
    const { hook } = mountMemory(api, video);
    expect(hook.result.current.resumeAt).toBe(125);
    video.currentTime = 6;
    video.dispatchEvent(new Event("pause"));
    expect(saved.at(-1)?.position).toBe(125);
    advance(playerConfig.resumePromptMs);
    expect(hook.result.current.resumeAt).toBeNull();
    video.dispatchEvent(new Event("pause"));
    expect(saved.at(-1)?.position).toBe(6);
  });

  it("dismissing the offer lets the next save store where the video is, at once", () => {
    const video = fakeVideo();
    const { api, saved } = library([{ id: "video_003", position: 125, duration: 600, updatedAt: 1 }]);
    const { hook } = mountMemory(api, video);
    video.currentTime = 3;
    hook.result.current.dismissResume();
    video.dispatchEvent(new Event("pause"));
    expect(saved.at(-1)?.position).toBe(3);
  });

  it("a frozen (failed) video and a video at 0 s save nothing; unmounting saves the last position", () => {
    const video = fakeVideo();
    const { api, saved } = library();
    const { hook } = mountMemory(api, video);
    video.dispatchEvent(new Event("pause"));
    expect(saved).toEqual([]);
    video.currentTime = 42;
    hook.unmount();
    expect(saved.map((s) => s.position)).toEqual([42]);

    const failed = fakeVideo();
    const other = library();
    const frozen = mountMemory(other.api, failed);
    frozen.hook.result.current.freeze();
    failed.currentTime = 30;
    failed.dispatchEvent(new Event("pause"));
    frozen.hook.unmount();
    expect(other.saved).toEqual([]);
  });
});
