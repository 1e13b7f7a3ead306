import { useSyncExternalStore, type RefObject } from "react";
import { preload } from "react-dom";
import type { Video } from "../catalogue/types";
import type { QualityChoice } from "../library";
import { startLine, type PlayLine } from "../playback/lines";
import { streamStartPreloads } from "../playback/stream-start";
import { rememberedLine, rememberLine, reportLineFailure, useLineFailover } from "./useLineFailover";
import { useStream } from "./useStream";

const noSubscription = () => () => {};

/**
 * The player's stream over its 线路 (docs/decisions/0086-play-lines.md): the line it starts on (the
 * one remembered for the title, read in the browser once mounted; the server renders line 1), the
 * engine bound to it (useStream.ts), the automatic failover with its notice (useLineFailover.ts),
 * and the viewer's choice in the 线路 menu, remembered per title.
 */
export function usePlayerStream(
  videoRef: RefObject<HTMLVideoElement | null>,
  title: { id: string; episode: number; lines: readonly PlayLine[]; mp4: string },
  quality: QualityChoice | null,
) {
  const { id, episode, lines } = title;
  const firstLine = useSyncExternalStore(
    noSubscription,
    () => startLine(lines, rememberedLine(id)),
    () => null,
  );
  const stream = useStream(videoRef, lines, title.mp4, quality, {
    startLine: firstLine,
    onLineFailed: (failedLine, next) => {
      reportLineFailure(id, episode, failedLine);
      failover.announce(next);
    },
  });
  const failover = useLineFailover(videoRef, lines, stream);
  const chooseLine = (index: number) => {
    rememberLine(id, index);
    stream.chooseLine(index);
  };
  return { stream, failover, chooseLine };
}

/**
 * Preloads (in render, so the server's HTML has them) the poster, high, and what every engine reads
 * before its first segment: the master and the start rendition's playlist, both at once, high
 * (small, and on the critical path). hls.js reads them from these preloads, native players from the
 * HTTP cache they fill. The worker sends the same two as a Link header.
 */
export function preloadStreamStart(video: Video, episode: number, engine: string | null, poster: string): void {
  preload(poster, { as: "image", fetchPriority: "high" });
  for (const href of streamStartPreloads(video, episode, engine)) preload(href, { as: "fetch", crossOrigin: "anonymous", fetchPriority: "high" });
}
