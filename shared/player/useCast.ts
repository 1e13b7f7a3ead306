import { useEffect, useState, type RefObject } from "react";
import { castWayOf, type CastWay } from "../playback/cast";

/** The button's code, once per page. */
let castModule: Promise<typeof import("./cast")> | null = null;
const loadCast = () => (castModule ??= import("./cast"));

/** How long a 投屏 notice stays (ms). */
const NOTICE_MS = 4000;

/**
 * 投屏 (decision 0105): the way this browser sends the video to a screen, read once mounted (null on
 * the server and where the browser has neither AirPlay nor the Remote Playback API: no button), and
 * the button's action, whose code (./cast.ts) loads when it is pressed.
 */
export function useCast(videoRef: RefObject<HTMLVideoElement | null>, progressive: string, playProgressive: () => boolean) {
  const [way, setWay] = useState<CastWay | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const found = castWayOf({
      airplay: "WebKitPlaybackTargetAvailabilityEvent" in window && "webkitShowPlaybackTargetPicker" in video,
      remotePlayback: "remote" in video && video.remote != null && !video.disableRemotePlayback,
    });
    setWay(found);
    // Fetched now, so a press opens the picker at once: pickers need the press's user activation, which a slow load would outlast.
    if (found) void loadCast();
  }, [videoRef]);
  useEffect(() => {
    if (notice === null) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  const cast = async () => {
    const video = videoRef.current;
    if (!video || !way) return;
    const { castVideo } = await loadCast();
    setNotice(await castVideo(video, way, progressive, playProgressive));
  };
  return { way, cast, notice };
}
