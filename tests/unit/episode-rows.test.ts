import { describe, expect, it } from "vitest";
import { applyEpisodeOp, episodeOpOfButton, episodesOfForm, rowsToAddTo, type EpisodeRow } from "../../shared/admin/episode-rows";

const rows: EpisodeRow[] = [
  { videoFile: "1.mp4", duration: "45:00" },
  { videoFile: "2.mp4", duration: "45:00", subtitles: ["en"] },
  { videoFile: "3.mp4", duration: "45:00" },
];
const files = (r: EpisodeRow[]) => r.map((e) => e.videoFile);

describe("剧集 rows", () => {
  it("moves and removes one episode, keeping what else it holds; episode 1 stays", () => {
    const moved = applyEpisodeOp(rows, { action: "move", episode: 2, to: 3 });
    expect(moved.ok && files(moved.rows)).toEqual(["1.mp4", "3.mp4", "2.mp4"]);
    expect(moved.ok && moved.rows[2].subtitles).toEqual(["en"]);
    const removed = applyEpisodeOp(rows, { action: "remove", episode: 3 });
    expect(removed.ok && files(removed.rows)).toEqual(["1.mp4", "2.mp4"]);
    for (const op of [
      { action: "remove", episode: 1 },
      { action: "move", episode: 1, to: 2 },
      { action: "move", episode: 3, to: 1 },
      { action: "add", row: { videoFile: "4.mp4", duration: "1:00" }, at: 1 },
    ] as const)
      expect(applyEpisodeOp(rows, op), JSON.stringify(op)).toEqual({ ok: false, message: expect.stringContaining("第1集是视频本身的视频文件") as string });
    expect(applyEpisodeOp(rows, { action: "remove", episode: 4 })).toEqual({ ok: false, message: "没有第4集" });
  });

  it("reads the row buttons", () => {
    expect(episodeOpOfButton("up:3")).toEqual({ action: "move", episode: 3, to: 2 });
    expect(episodeOpOfButton("down:3")).toEqual({ action: "move", episode: 3, to: 4 });
    expect(episodeOpOfButton("remove:2")).toEqual({ action: "remove", episode: 2 });
    expect(episodeOpOfButton("up:0")).toBeNull();
    expect(episodeOpOfButton("save")).toBeNull();
  });

  it("a film's own file becomes episode 1 when an episode is added, unless that is the added one", () => {
    const own = { videoFile: "7.mp4", duration: "01:30:00" };
    expect(rowsToAddTo(undefined, own, { videoFile: "8.mp4", duration: "45:00" })).toEqual([own]);
    expect(rowsToAddTo([], own, { videoFile: "/7.mp4", duration: "45:00" })).toEqual([]);
  });

  it("the form: rows, the blank row appended, then the pressed button; no rows: the older text field", () => {
    const form: Record<string, string[]> = {
      episodeFile: ["1.mp4", "2.mp4", ""],
      episodeDuration: ["45:00", "44:00", ""],
      episodeName: ["", "乙", ""],
      newEpisodeFile: ["3.mp4"],
      newEpisodeDuration: ["43:00"],
      newEpisodeName: ["丙"],
      episodeOp: ["up:3"],
    };
    const read = (f: Record<string, string[]>) =>
      episodesOfForm(
        (n) => f[n]?.[0] ?? "",
        (n) => f[n] ?? [],
      );
    expect(read(form)).toEqual({ ok: true, text: "1.mp4 | 45:00\n3.mp4 | 43:00 | 丙\n2.mp4 | 44:00 | 乙", summary: "第3集已移到第2集" });
    expect(read({ ...form, newEpisodeFile: [""], newEpisodeDuration: [""], newEpisodeName: [""], episodeOp: ["add"] })).toMatchObject({
      ok: false,
      message: "请先填写新一集的视频文件和时长",
    });
    expect(read({ episodes: ["1.mp4 | 45:00"] })).toEqual({ ok: true, text: null, summary: null });
  });
});
