/**
 * Where 弹幕 hook into the player: after hydration the danmaku module (Danmaku.tsx, its own
 * chunk) is imported and mounted. Nothing of it is in the route's first chunk or blocks playback.
 */
import { useEffect, useState, type ComponentType, type RefObject } from "react";

/** `room`: the 弹幕 room key of what plays (shared/danmaku/model.ts roomKey(videoId, episode)). */
type DanmakuProps = { videoRef: RefObject<HTMLVideoElement | null>; room: string };

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
