// A resume never lands inside an intro the viewer skips (docs/decisions/0092-intro-outro.md,
// resumeTarget in shared/playback/markers.ts, applied by shared/player/usePlaybackMemory.ts). The
// e2e clips are 12 s and a position is only offered from RESUME_MARGIN (5 s) to 5 s before the
// end, so an admin first gives 纸鸢与龙 (video_013, a film no other e2e file plays) an intro of
// 0–9 s through 视频管理's API; a viewer who skips intros and left at 6 s is offered 0:09.
import { describe, expect, it } from "vitest";
import { PREFS_KEY } from "../../shared/stored-prefs";
import { enrolledAdmin } from "./admin-pages";
import { baseURL, browserForFile, media, open } from "./browser";
import { newVisitor } from "./visitors";

const browser = browserForFile();
const FILM = "video_013";

describe("resume and a skipped intro", () => {
  it("with 自动跳过片头片尾 on, a position inside the intro is offered from the intro's end", async () => {
    const { context: admin } = await enrolledAdmin(browser());
    const headers = { Origin: baseURL() };
    const title = await admin.request.get(`${baseURL()}/api/admin/titles/${FILM}`);
    const { version } = (await title.json()) as { version: number };
    const saved = await admin.request.post(`${baseURL()}/api/admin/titles/${FILM}/markers`, {
      headers,
      data: { version, fields: { "intro-start-0": "0", "intro-end-0": "9" } },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    await admin.close();

    const viewer = await newVisitor(browser());
    const { page, log } = await open(viewer, `/video/${FILM}`);
    // Leave at 6 s, inside the intro (a pause saves the position), with 自动跳过片头片尾 still off.
    await media(page, (v) => {
      v.pause();
      v.currentTime = 6;
    });
    await page.waitForFunction(() => (document.querySelector("video.player-video") as HTMLVideoElement).currentTime === 6);
    await media(page, (v) => v.dispatchEvent(new Event("pause")));
    await page.close();
    // Then 自动跳过片头片尾 on (the stored preference its checkbox writes), set on another page: on the
    // video page the player would skip the intro itself at once and move the saved position.
    const elsewhere = await open(viewer, "/schedule");
    await elsewhere.page.evaluate((key) => {
      const prefs = JSON.parse(localStorage.getItem(key) ?? "{}") as Record<string, unknown>;
      localStorage.setItem(key, JSON.stringify({ ...prefs, autoSkip: true }));
    }, PREFS_KEY);
    await elsewhere.page.close();

    const again = await open(viewer, `/video/${FILM}`);
    const offer = again.page.getByRole("button", { name: /继续播放/ });
    await offer.waitFor();
    expect(await offer.textContent()).toBe("从 0:09 继续播放");
    expect(log.errors).toEqual([]);
    expect(again.log.errors).toEqual([]);
    await viewer.close();
  });
});
