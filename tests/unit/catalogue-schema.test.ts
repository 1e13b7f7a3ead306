import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { formatProblem, validateCatalogue, type CatalogueProblem, type TitleEntry } from "../../shared/catalogue/schema";
import { rawVideos } from "../../scripts/catalogue/titles";

const film = (): TitleEntry => structuredClone(rawVideos.find((v) => !v.episodes) as TitleEntry);
const series = (): TitleEntry => structuredClone(rawVideos.find((v) => v.episodes && v.episodes.length >= 3) as TitleEntry);

function problems(entries: unknown[]): CatalogueProblem[] {
  const result = validateCatalogue(entries);
  return result.ok ? [] : result.problems;
}

describe("catalogue schema", () => {
  it("accepts the built-in catalogue", () => {
    const result = validateCatalogue(rawVideos);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.titles).toHaveLength(50);
  });

  it("names the entry, the field and what is wrong for each bad field", () => {
    const cases: Array<[string, (e: Record<string, unknown>) => void, string, RegExp]> = [
      ["id", (e) => (e.id = "film_1"), "id", /"video_"/],
      ["missing title", (e) => delete e.title, "title", /缺少此项/],
      ["empty title", (e) => (e.title = ""), "title", /不能为空/],
      ["padded title", (e) => (e.title = " 雾港 "), "title", /空格/],
      ["control character", (e) => (e.description = "一\u0007二"), "description", /控制字符/],
      ["year as text", (e) => (e.year = "2025"), "year", /必须是数字/],
      ["year out of range", (e) => (e.year = 1800), "year", /1900/],
      ["rating above 10", (e) => (e.rating = 10.5), "rating", /不能大于10/],
      ["rating with two decimals", (e) => (e.rating = 8.75), "rating", /一位小数/],
      ["duration", (e) => (e.duration = "2h"), "duration", /02:08:40/],
      ["video file", (e) => (e.videoFile = "../x.mp4"), "videoFile", /12\.mp4/],
      ["cover", (e) => (e.coverImage = "x.png"), "coverImage", /12\.webp/],
      ["category empty", (e) => (e.category = []), "category", /至少要有一个分类/],
      ["repeated tag", (e) => (e.tags = ["悬疑", "悬疑"]), "tags", /不能有重复项/],
      ["typo field", (e) => (e.yaer = 2025), "yaer", /不是已知的字段/],
      ["area not text", (e) => (e.area = 3), "area", /必须是文字/],
    ];
    for (const [name, change, field, message] of cases) {
      const entry = film() as unknown as Record<string, unknown>;
      const id = entry.id as string;
      change(entry);
      const found = problems([entry]);
      expect(found, name).toHaveLength(1);
      expect(found[0].entry, name).toBe(name === "id" ? "film_1" : id);
      expect(found[0].field, name).toBe(field);
      expect(found[0].message, name).toMatch(message);
    }
  });

  it("points into episodes by index", () => {
    const entry = series() as unknown as { id: string; episodes: Array<Record<string, unknown>> };
    entry.episodes[2].duration = "45";
    entry.episodes[1].title = "x";
    const found = problems([entry]).map(formatProblem);
    expect(found).toEqual([`${entry.id} episodes.1.title: 不是已知的字段`, `${entry.id} episodes.2.duration: 格式应为 "02:08:40" 或 "45:00"`]);
  });

  it("reports every problem of every entry, with the position when the id is missing", () => {
    const a = film() as unknown as Record<string, unknown>;
    const b = film() as unknown as Record<string, unknown>;
    a.year = "x";
    delete b.id;
    b.rating = -1;
    const found = problems([a, b]).map(formatProblem);
    expect(found).toContain(`${a.id as string} year: 必须是数字`);
    expect(found).toContain("#2 id: 缺少此项");
    expect(found).toContain("#2 rating: 不能小于0");
  });

  it("checks rules across entries: unique ids and media, episode 1 is the title's file, totals", () => {
    const a = series();
    const b = film();
    b.id = a.id;
    b.videoFile = a.episodes?.[1].videoFile ?? "";
    b.coverImage = b.videoFile.replace(".mp4", ".webp");
    const c = series();
    c.id = "video_900";
    c.videoFile = "900.mp4";
    c.coverImage = "900.webp";
    c.episodes = [{ videoFile: "901.mp4", duration: "45:00" }];
    c.totalEpisodes = 0 + 1;
    const d = film();
    d.id = "video_901";
    d.totalEpisodes = 3;
    const found = problems([a, b, c, d]).map((p) => `${p.entry} ${p.field}`);
    expect(found).toEqual([`${a.id} id`, `${a.id} videoFile`, "video_900 episodes.0.videoFile", "video_901 totalEpisodes"]);
  });

  it("words every problem in Chinese (the check and 视频管理 print the same text)", () => {
    const a = series() as unknown as Record<string, unknown> & { episodes: Array<Record<string, unknown>> };
    Object.assign(a, {
      title: " 雾港 ",
      description: "",
      category: [],
      tags: ["悬疑", "悬疑", 3],
      year: 1800.5,
      rating: 8.75,
      duration: "2h",
      coverImage: "x.png",
      videoFile: "../x.mp4",
      area: "一\u0007二",
      status: "一".repeat(21),
      totalEpisodes: 0,
      serial: "maybe",
      updateDays: [0, 0],
      state: "hidden",
      publishAt: "tomorrow",
      version: 0,
      subtitles: ["fr", "fr"],
      lines: [{ mirror: "x y" }, { name: "", url: "ftp://x" }, {}],
      intro: { start: 5, end: 1 },
      outro: { start: -1, end: 90_000, at: 1 },
      yaer: 2025,
    });
    a.episodes[1] = { videoFile: 3, duration: "45", title: "x" };
    const b = film() as unknown as Record<string, unknown>;
    b.id = a.id;
    b.videoFile = a.episodes[2].videoFile;
    b.totalEpisodes = 2;
    const found = [...problems([a]), ...problems([b, b]), ...problems([{}]), ...problems({} as unknown as unknown[])];
    expect(found.length).toBeGreaterThan(30);
    const english = found.filter((p) => !/\p{Script=Han}/u.test(p.message));
    expect(english).toEqual([]);
  });

  it("is not a list → one problem for the file", () => {
    expect(problems({ titles: [] } as unknown as unknown[])).toEqual([{ entry: "(file)", field: "", message: "必须是视频的 JSON 列表" }]);
  });
});

describe("npm run catalogue -- check", () => {
  const run = (file: string) =>
    spawnSync(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "scripts/catalogue/cli.ts", "check", file], { encoding: "utf8" });

  it("passes the built-in catalogue and lists every problem of a bad file with exit 1", () => {
    const ok = run("catalogue/titles.json");
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/50 titles, \d+ episodes or films — no problems/);
    const dir = mkdtempSync(path.join(tmpdir(), "catalogue-"));
    const bad = path.join(dir, "titles.json");
    const entry = film() as unknown as Record<string, unknown>;
    entry.rating = "9";
    entry.genre = "x";
    writeFileSync(bad, JSON.stringify([entry]));
    const failed = run(bad);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain(`${entry.id as string} rating: 必须是数字`);
    expect(failed.stderr).toContain(`${entry.id as string} genre: 不是已知的字段`);
    // The words 视频管理 shows for the same field (tests/worker/admin-title-messages.test.ts).
    writeFileSync(bad, JSON.stringify([{ ...film(), rating: 11, duration: "90分钟" }]));
    const chinese = run(bad);
    expect(chinese.stderr).toContain(`${entry.id as string} rating: 不能大于10`);
    expect(chinese.stderr).toContain(`${entry.id as string} duration: 格式应为 "02:08:40" 或 "45:00"`);
    writeFileSync(bad, "[{");
    expect(run(bad).stderr).toMatch(/不是有效的 JSON/);
  });
});
