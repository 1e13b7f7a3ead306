/**
 * 视频管理's 剧集 rows: adding, removing and moving one episode of a title (the edit form's per-row
 * buttons, worker/admin/views/Titles.tsx, and `POST /api/admin/titles/{id}/episodes`). The row
 * carries the rest of the episode (its 字幕, 线路, 片头 and 片尾) with it; the catalogue schema
 * (shared/catalogue/schema.ts) still decides whether the result is valid. Pure.
 *
 * Episode 1 is the title's own video file (the schema's rule): it is neither removed nor moved,
 * and no episode moves in front of it — to change it, change the title's 视频文件.
 */

/** One episode as the form and the API name it, with whatever else the saved episode holds. */
export type EpisodeRow = { videoFile: string; duration: string; name?: string } & Record<string, unknown>;

export type EpisodeOp =
  { action: "add"; row: EpisodeRow; at?: number } | { action: "remove"; episode: number } | { action: "move"; episode: number; to: number };

export type EpisodeOpResult = { ok: true; rows: EpisodeRow[]; summary: string } | { ok: false; message: string };

const FIRST_FIXED = "第1集是视频本身的视频文件，不能删除或移动；要换第1集，请修改上面的「视频文件」";

const isWhole = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n);

/** `rows` after `op`, with a short Chinese summary for the notice and the 操作日志; or why not. */
export function applyEpisodeOp(rows: readonly EpisodeRow[], op: EpisodeOp): EpisodeOpResult {
  const count = rows.length;
  const exists = (n: number) => isWhole(n) && n >= 1 && n <= count;
  switch (op.action) {
    case "add": {
      const at = op.at ?? count + 1;
      if (!isWhole(at) || at < 1 || at > count + 1) return { ok: false, message: `只能添加到第1集到第${count + 1}集的位置` };
      if (at === 1 && count > 0) return { ok: false, message: FIRST_FIXED };
      const next = [...rows];
      next.splice(at - 1, 0, op.row);
      return { ok: true, rows: next, summary: `已添加第${at}集` };
    }
    case "remove": {
      if (!exists(op.episode)) return { ok: false, message: `没有第${String(op.episode)}集` };
      if (op.episode === 1) return { ok: false, message: FIRST_FIXED };
      return { ok: true, rows: rows.filter((_, i) => i !== op.episode - 1), summary: `已删除第${op.episode}集` };
    }
    case "move": {
      if (!exists(op.episode)) return { ok: false, message: `没有第${String(op.episode)}集` };
      if (!exists(op.to)) return { ok: false, message: `只能移动到第2集到第${count}集的位置` };
      if (op.episode === 1 || op.to === 1) return { ok: false, message: FIRST_FIXED };
      const next = [...rows];
      const [moved] = next.splice(op.episode - 1, 1);
      next.splice(op.to - 1, 0, moved);
      return { ok: true, rows: next, summary: op.episode === op.to ? "剧集顺序未变" : `第${op.episode}集已移到第${op.to}集` };
    }
  }
}

const fileNumber = (file: string) => file.trim().replace(/^\/+/, "");

/**
 * The rows an added episode joins: a film's own file becomes episode 1 (it turns into a series),
 * unless the added episode is that file itself (a new series' first row).
 */
export function rowsToAddTo(episodes: readonly EpisodeRow[] | undefined, own: { videoFile: string; duration: string }, adding: EpisodeRow): EpisodeRow[] {
  if (episodes && episodes.length > 0) return [...episodes];
  if (!own.videoFile.trim() || fileNumber(adding.videoFile) === fileNumber(own.videoFile)) return [];
  return [{ videoFile: own.videoFile, duration: own.duration }];
}

/** The form's row buttons: "up:3", "down:3", "remove:3" (episode numbers from 1); null for anything else. */
export function episodeOpOfButton(value: string): EpisodeOp | null {
  const match = /^(up|down|remove):([1-9]\d{0,3})$/.exec(value);
  if (!match) return null;
  const episode = Number(match[2]);
  if (match[1] === "remove") return { action: "remove", episode };
  return { action: "move", episode, to: match[1] === "up" ? episode - 1 : episode + 1 };
}

/** An operation from the JSON API's body; a Chinese message when it is not one. */
export function episodeOpOfBody(body: Record<string, unknown>): EpisodeOp | { error: string } {
  const number = (key: string): number | undefined => (typeof body[key] === "number" ? body[key] : undefined);
  switch (body.action) {
    case "add": {
      const text = (key: string) => (typeof body[key] === "string" ? body[key].trim() : "");
      const name = text("name");
      const at = number("at");
      if (body.at !== undefined && at === undefined) return { error: "at 必须是集数（数字）" };
      return {
        action: "add",
        row: { videoFile: text("videoFile"), duration: text("duration"), ...(name ? { name } : {}) },
        ...(at !== undefined ? { at } : {}),
      };
    }
    case "remove": {
      const episode = number("episode");
      return episode === undefined ? { error: "episode 必须是集数（数字）" } : { action: "remove", episode };
    }
    case "move": {
      const episode = number("episode");
      const to = number("to");
      return episode === undefined || to === undefined ? { error: "episode 和 to 必须是集数（数字）" } : { action: "move", episode, to };
    }
    default:
      return { error: "action 只能是 add、remove 或 move" };
  }
}

/** The form's rows from its repeated fields; a row left wholly empty (the blank 添加 row) is skipped. */
export function episodeRowsOfForm(files: readonly string[], durations: readonly string[], names: readonly string[]): EpisodeRow[] {
  const rows: EpisodeRow[] = [];
  for (let i = 0; i < files.length; i++) {
    const videoFile = files[i].trim();
    const duration = (durations[i] ?? "").trim();
    const name = (names[i] ?? "").trim();
    if (!videoFile && !duration && !name) continue;
    rows.push({ videoFile, duration, ...(name ? { name } : {}) });
  }
  return rows;
}

/** Rows as the form's one-a-line 剧集 text ("12.mp4 | 45:00 | 名称"), which the form and entryFromForm read. */
export const rowsToLines = (rows: readonly EpisodeRow[]): string =>
  rows.map((r) => [r.videoFile.replace(/^\//, ""), r.duration, ...(r.name ? [r.name] : [])].join(" | ")).join("\n");

export type FormEpisodes = { ok: true; text: string | null; summary: string | null } | { ok: false; message: string; text: string };

/**
 * The 剧集 an edit form sends as rows (`episodeFile`, `episodeDuration`, `episodeName`, repeated),
 * plus its blank 添加 row (`newEpisode…`: appended when filled), after the row button pressed
 * (`episodeOp`: up:N, down:N, remove:N). `text` is null when the form sends no rows (a client
 * posting the older one-a-line `episodes` field). `get`/`getAll` read the form.
 */
export function episodesOfForm(get: (name: string) => string, getAll: (name: string) => string[]): FormEpisodes {
  const rowFields = (prefix: string) => episodeRowsOfForm(getAll(`${prefix}File`), getAll(`${prefix}Duration`), getAll(`${prefix}Name`));
  if (getAll("episodeFile").length === 0 && getAll("newEpisodeFile").length === 0) return { ok: true, text: null, summary: null };
  let rows = rowFields("episode");
  let summary: string | null = null;
  const button = get("episodeOp");
  const added = rowFields("newEpisode");
  if (added.length > 0) {
    const own = { videoFile: get("videoFile").trim(), duration: get("duration").trim() };
    const done = applyEpisodeOp(rowsToAddTo(rows, own, added[0]), { action: "add", row: added[0] });
    if (!done.ok) return { ok: false, message: done.message, text: rowsToLines(rows) };
    rows = done.rows;
    summary = done.summary;
  } else if (button === "add") {
    return { ok: false, message: "请先填写新一集的视频文件和时长", text: rowsToLines(rows) };
  }
  const op = episodeOpOfButton(button);
  if (op) {
    const done = applyEpisodeOp(rows, op);
    if (!done.ok) return { ok: false, message: done.message, text: rowsToLines(rows) };
    rows = done.rows;
    summary = done.summary;
  }
  return { ok: true, text: rowsToLines(rows), summary };
}
