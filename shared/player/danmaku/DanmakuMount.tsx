/**
 * Where 弹幕 hook into the player: after hydration the danmaku module (Danmaku.tsx, its own
 * chunk) is imported and mounted. Nothing of it is in the route's first chunk or blocks playback.
 */
import { useEffect, useState, type ComponentType, type RefObject } from "react";

/** Given a point of the viewport: opens 举报 for the 弹幕 shown there and returns true, or returns false when there is none. */
export type ReportAt = (x: number, y: number) => boolean;

/**
 * `room`: the 弹幕 room key of what plays (shared/danmaku/model.ts roomKey(videoId, episode));
 * `reportAtRef`: filled by the overlay once loaded, for the player's right click and long press.
 */
type DanmakuProps = { videoRef: RefObject<HTMLVideoElement | null>; room: string; reportAtRef: RefObject<ReportAt | null> };

export function DanmakuMount(props: DanmakuProps) {
  const [Loaded, setLoaded] = useState<ComponentType<DanmakuProps> | null>(null);
  useEffect(() => {
    let live = true;
    import("./Danmaku")
      .then((module) => {
        if (live) setLoaded(() => module.Danmaku);
      })
      .catch((error: unknown) => console.error("弹幕加载失败", error));
    return () => {
      live = false;
    };
  }, []);
  return Loaded ? <Loaded {...props} /> : null;
}
