// Sample 弹幕 as deployed (DANMAKU_SAMPLES on; the "worker" project turns them off): this file
// runs in its own vitest project, "worker-samples" (vitest.config.ts), because the DanmakuRoom
// Durable Object reads the binding from the project's configuration, not from a request.
// A built-in title's room stores its samples (shared/danmaku/samples.ts) the first time it is
// used, once, even after the room was evicted from memory; other episodes' rooms get none.
import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getVideo } from "../../scripts/catalogue/titles";
import type { DanmakuComment } from "../../shared/danmaku/model";
import { durationSeconds, SAMPLE_AUTHOR, sampleComments, SAMPLES_PER_VIDEO } from "../../shared/danmaku/samples";
import { BASE, call, signUp } from "./helpers/visitor";

interface WindowBody {
  comments: DanmakuComment[];
}

let readSeq = 0;
/** Every comment of a room; each read asks a window of its own, so no read is the edge cache's copy of an earlier one. */
async function commentsOf(room: string): Promise<DanmakuComment[]> {
  const res = await call("GET", `/api/danmaku/${room}?from=0&to=${86_000 + ++readSeq}`);
  expect(res.status).toBe(200);
  return (await res.json<WindowBody>()).comments;
}

/** What a comment shows (the id and time of storing differ per room and run). */
const shown = (c: Pick<DanmakuComment, "time" | "text" | "mode" | "color" | "author">) => [c.time, c.text, c.mode, c.color, c.author];

describe("sample 弹幕 (DANMAKU_SAMPLES on)", () => {
  it("a film's room holds its title's sample comments the first time it is read", async () => {
    const video = getVideo("video_005")!;
    const comments = await commentsOf("video_005");
    expect(comments).toHaveLength(SAMPLES_PER_VIDEO);
    const expected = sampleComments("video_005", durationSeconds(video.duration), 0).sort((a, b) => a.time - b.time);
    expect(comments.map(shown)).toEqual(expected.map(shown));
    expect(comments.every((c) => c.author === SAMPLE_AUTHOR)).toBe(true);
  });

  it("stores them once: a post adds one comment, and a room evicted from memory does not seed again", async () => {
    expect(await commentsOf("video_006")).toHaveLength(SAMPLES_PER_VIDEO);
    const { jar } = await signUp("dm-samples");
    const posted = await call("POST", "/api/danmaku/v3/", {
      jar,
      json: { id: "video_006", time: 3.5, text: "样例之外", color: "#ffffff", type: 0 },
      headers: { Origin: BASE },
    });
    expect(posted.status).toBe(200);
    expect((await commentsOf("video_006")).length).toBe(SAMPLES_PER_VIDEO + 1);
    // A new instance of the room (as after an eviction) checks what it stored, not its memory.
    await abortAllDurableObjects();
    const after = await commentsOf("video_006");
    expect(after.length).toBe(SAMPLES_PER_VIDEO + 1);
    expect(after.filter((c) => c.author === SAMPLE_AUTHOR)).toHaveLength(SAMPLES_PER_VIDEO);
    expect(after.filter((c) => c.text === "样例之外")).toHaveLength(1);
  });

  it("a series' first episode gets samples, its other episodes none", async () => {
    expect(await commentsOf("video_003")).toHaveLength(SAMPLES_PER_VIDEO);
    expect(await commentsOf("video_003~2")).toEqual([]);
  });
});
