import { useEffect, useRef, useState, type MouseEvent as ReactMouseEvent, type PointerEvent as ReactPointerEvent } from "react";
import { playerConfig } from "./config";

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
  /** Long press started (play faster) and ended (back to the chosen speed). */
  onHoldStart: () => void;
  onHoldEnd: () => void;
  /** Whether the controls are hidden right now. */
  controlsHidden: () => boolean;
}

type Zone = "left" | "center" | "right";

/**
 * Touch gestures on the picture, as on Chinese video apps: double tap on the left or right third
 * seeks −10/+10 s with a hint, a long press plays at 2× while held (倍速播放中), a single tap
 * reveals the controls or toggles playback. Mouse input keeps click = play/pause and double
 * click = fullscreen (`isTouch()` tells the click handlers which input it was).
 */
export function useTouchGestures(actions: TouchGestureActions) {
  const { doubleTapMs, longPressMs, touchSlopPx, hintMs, seekStep } = playerConfig;
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
    lastTap: null as null | { at: number; zone: Zone },
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
      if (e.pointerType === "mouse" || !e.isPrimary) return;
      st.down = { x: e.clientX, y: e.clientY, hidden: latest.current.controlsHidden() };
      st.moved = false;
      clearTimeout(st.holdTimer);
      st.holdTimer = setTimeout(() => {
        st.holding = true;
        clearTimeout(st.tapTimer);
        latest.current.onHoldStart();
        show(`${playerConfig.longPressRate}× 倍速播放中`, "center", true);
      }, longPressMs);
    },
    onPointerMove(e: ReactPointerEvent<HTMLElement>) {
      const st = s.current;
      if (!st.down || st.moved) return;
      if (Math.hypot(e.clientX - st.down.x, e.clientY - st.down.y) > touchSlopPx) {
        st.moved = true;
        if (!st.holding) clearTimeout(st.holdTimer);
      }
    },
    onPointerUp(e: ReactPointerEvent<HTMLElement>) {
      const st = s.current;
      const down = st.down;
      st.down = null;
      if (e.pointerType === "mouse" || !down) return;
      if (st.holding) return endHold();
      clearTimeout(st.holdTimer);
      if (st.moved) return;
      const box = e.currentTarget.getBoundingClientRect();
      const x = (e.clientX - box.left) / box.width;
      const zone: Zone = x < 1 / 3 ? "left" : x > 2 / 3 ? "right" : "center";
      const now = e.timeStamp;
      const last = st.lastTap;
      if (zone !== "center" && last && last.zone === zone && now - last.at < doubleTapMs) {
        clearTimeout(st.tapTimer);
        st.lastTap = { at: now, zone }; // a third tap seeks again
        const delta = zone === "left" ? -seekStep : seekStep;
        latest.current.onSeekBy(delta);
        show(delta < 0 ? `快退 ${seekStep} 秒` : `快进 ${seekStep} 秒`, zone);
        return;
      }
      st.lastTap = { at: now, zone };
      clearTimeout(st.tapTimer);
      if (zone === "center") latest.current.onTap(down.hidden);
      else st.tapTimer = setTimeout(() => latest.current.onTap(down.hidden), doubleTapMs);
    },
    onPointerCancel() {
      s.current.down = null;
      endHold();
    },
    onContextMenu(e: ReactMouseEvent<HTMLElement>) {
      // A long press must not open the browser's menu for the video ("save video" …).
      if (s.current.pointerType !== "mouse") e.preventDefault();
    },
  };

  return { hint, handlers, isTouch: () => s.current.pointerType !== "mouse" };
}
