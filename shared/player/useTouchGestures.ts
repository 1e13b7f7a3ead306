import { useEffect, useRef, useState, type MouseEvent as ReactMouseEvent, type PointerEvent as ReactPointerEvent } from "react";
import { playerConfig } from "../playback/config";
import { isTouchPointer, longPressHint, movedBeyondSlop, tapOutcome, tapZone, type Tap } from "../playback/touch-gestures";

export interface GestureHint {
  text: string;
  side: "left" | "right" | "center";
  /** Changes with every hint, so the same text shown twice animates again. */
  id: number;
}

export interface TouchGestureActions {
  /** A single tap; `controlsWereHidden` tells whether the controls were hidden when the finger came down. */
  onTap: (controlsWereHidden: boolean) => void;
  /** Double tap on the left or right third: seek by this many seconds. */
  onSeekBy: (seconds: number) => void;
  /** A long press at a point of the viewport, before the faster playback: true when it was taken (a 弹幕 there is reported). */
  onLongPressAt?: (x: number, y: number) => boolean;
  /** Long press started (play faster) and ended (back to the chosen speed). */
  onHoldStart: () => void;
  onHoldEnd: () => void;
  /** Whether the controls are hidden right now. */
  controlsHidden: () => boolean;
}

/**
 * Touch gestures on the picture, as on Chinese video apps: double tap on the left or right third
 * seeks −10/+10 s with a hint, a long press plays at 2× while held (倍速播放中), a single tap
 * reveals the controls or toggles playback. Mouse input keeps click = play/pause and double
 * click = fullscreen (`isTouch()` tells the click handlers which input it was).
 */
export function useTouchGestures(actions: TouchGestureActions) {
  const { longPressMs, hintMs } = playerConfig;
  const [hint, setHint] = useState<GestureHint | null>(null);
  const latest = useRef(actions);
  useEffect(() => {
    latest.current = actions;
  });
  const s = useRef({
    pointerType: "mouse",
    down: null as null | { x: number; y: number; hidden: boolean },
    moved: false,
    holding: false,
    holdTimer: undefined as ReturnType<typeof setTimeout> | undefined,
    tapTimer: undefined as ReturnType<typeof setTimeout> | undefined,
    lastTap: null as null | Tap,
    hintTimer: undefined as ReturnType<typeof setTimeout> | undefined,
    hintId: 0,
  });

  useEffect(() => {
    const state = s.current;
    return () => {
      clearTimeout(state.holdTimer);
      clearTimeout(state.tapTimer);
      clearTimeout(state.hintTimer);
    };
  }, []);

  const show = (text: string, side: GestureHint["side"], sticky = false) => {
    const st = s.current;
    clearTimeout(st.hintTimer);
    setHint({ text, side, id: ++st.hintId });
    if (!sticky) st.hintTimer = setTimeout(() => setHint(null), hintMs);
  };

  const endHold = () => {
    const st = s.current;
    clearTimeout(st.holdTimer);
    if (!st.holding) return;
    st.holding = false;
    setHint(null);
    latest.current.onHoldEnd();
  };

  const handlers = {
    onPointerDown(e: ReactPointerEvent<HTMLElement>) {
      const st = s.current;
      st.pointerType = e.pointerType;
      if (!isTouchPointer(e.pointerType) || !e.isPrimary) return;
      st.down = { x: e.clientX, y: e.clientY, hidden: latest.current.controlsHidden() };
      st.moved = false;
      clearTimeout(st.holdTimer);
      const at = { x: e.clientX, y: e.clientY };
      st.holdTimer = setTimeout(() => {
        clearTimeout(st.tapTimer);
        if (latest.current.onLongPressAt?.(at.x, at.y)) {
          // Taken (举报 of a 弹幕): the finger's lifting is neither a tap nor the end of a hold.
          st.down = null;
          return;
        }
        st.holding = true;
        latest.current.onHoldStart();
        show(longPressHint(), "center", true);
      }, longPressMs);
    },
    onPointerMove(e: ReactPointerEvent<HTMLElement>) {
      const st = s.current;
      if (!st.down || st.moved) return;
      if (movedBeyondSlop(st.down, e.clientX, e.clientY)) {
        st.moved = true;
        if (!st.holding) clearTimeout(st.holdTimer);
      }
    },
    onPointerUp(e: ReactPointerEvent<HTMLElement>) {
      const st = s.current;
      const down = st.down;
      st.down = null;
      if (!isTouchPointer(e.pointerType) || !down) return;
      if (st.holding) return endHold();
      clearTimeout(st.holdTimer);
      if (st.moved) return;
      const box = e.currentTarget.getBoundingClientRect();
      const tap: Tap = { at: e.timeStamp, zone: tapZone(e.clientX, box.left, box.width) };
      const outcome = tapOutcome(st.lastTap, tap);
      st.lastTap = tap; // after a double tap too: a third tap seeks again
      clearTimeout(st.tapTimer);
      if (outcome.kind === "seek") {
        latest.current.onSeekBy(outcome.seconds);
        show(outcome.hint, tap.zone);
        return;
      }
      if (outcome.deferMs === 0) latest.current.onTap(down.hidden);
      else st.tapTimer = setTimeout(() => latest.current.onTap(down.hidden), outcome.deferMs);
    },
    onPointerCancel() {
      s.current.down = null;
      endHold();
    },
    onContextMenu(e: ReactMouseEvent<HTMLElement>) {
      // A long press must not open the browser's menu for the video ("save video" …).
      if (isTouchPointer(s.current.pointerType)) e.preventDefault();
    },
  };

  return { hint, handlers, isTouch: () => isTouchPointer(s.current.pointerType) };
}
