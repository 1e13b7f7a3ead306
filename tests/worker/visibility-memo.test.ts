// Media keep playing through a D1 outage (issue 35; worker/media/visibility.ts,
// docs/decisions/0063-degrade-dont-fail.md), inside workerd with D1 faults injected: a title
// played before the outage keeps serving its playlists, progressive file and segments during it;
// a title this isolate never checked still answers 503; a title unpublished since is not served
// once the content version says so, even when its own visibility cannot be read.
import { env } from "cloudflare:test";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { streamKey, streamNames } from "../../shared/stream/contract";
import { forgetContentTag } from "../../worker/content-version";
import { forgetMediaVisibility } from "../../worker/media/visibility";
import { callWith } from "./helpers/visitor";

const V = "0badcafe";
const SEGMENT = streamNames.segment(360, V, 1);
const OUTAGE = "D1_ERROR: Network connection lost. (injected by the test)";

/** A D1 binding whose every call fails as in an outage. */
function failingDb(): D1Database {
  const fail = () => Promise.reject(new Error(OUTAGE));
  const statement = { bind: () => statement, first: fail, all: fail, run: fail, raw: fail };
  const db = { prepare: () => statement, batch: fail, exec: fail, dump: fail, withSession: () => ({ ...db, getBookmark: () => null }) };
  return db;
}

/** The test's D1, except that the media visibility query fails (the content version still reads). */
function visibilityFailingDb(): D1Database {
  const fail = () => Promise.reject(new Error(OUTAGE));
  const failing = { bind: () => failing, first: fail, all: fail, run: fail, raw: fail };
  const reader = (real: Pick<D1Database, "prepare" | "batch">) => ({
    prepare: (sql: string) => (sql.includes("media_uploads") ? failing : real.prepare(sql)),
    batch: (list: D1PreparedStatement[]) => real.batch(list),
  });
  return {
    ...reader(env.DB),
    exec: (sql: string) => env.DB.exec(sql),
    withSession: (constraint?: string) => {
      const session = env.DB.withSession(constraint);
      return { ...reader(session), getBookmark: () => session.getBookmark() };
    },
  } as unknown as D1Database;
}

/** Three media numbers of three different built-in titles, and those titles. */
let media: Array<{ number: number; title: string }> = [];

beforeAll(async () => {
  const { results } = await env.DB.prepare(
    "SELECT min(m.number) AS number, m.title_id AS title FROM title_media m JOIN titles t ON t.id = m.title_id GROUP BY m.title_id ORDER BY m.title_id DESC LIMIT 3",
  ).all<{ number: number; title: string }>();
  media = results;
  expect(media).toHaveLength(3);
  for (const { number } of media) {
    await env.MEDIA.put(streamKey(number, streamNames.master), "#EXTM3U\n");
    await env.MEDIA.put(streamKey(number, SEGMENT), new Uint8Array(64).fill(7));
    await env.MEDIA.put(`${number}.mp4`, new Uint8Array(128).fill(9));
  }
});

const R2_ONLY: Partial<Env> = { MEDIA_CACHE: "off" };
const D1_DOWN: Partial<Env> = { ...R2_ONLY, DB: failingDb() };

const filesOf = (n: number) => [`/stream/${n}/${streamNames.master}`, `/stream/${n}/${SEGMENT}`, `/${n}.mp4`];

beforeEach(() => {
  forgetMediaVisibility();
  forgetContentTag();
  vi.spyOn(console, "error").mockImplementation(() => {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("the media visibility memo", () => {
  it("a title played before the outage keeps serving its playlist, progressive file and segments during it", async () => {
    const [{ number }] = media;
    for (const path of filesOf(number)) expect((await callWith(R2_ONLY, "GET", path)).res.status, path).toBe(200);
    // The outage: D1 answers nothing, the content version's memo has expired too.
    forgetContentTag();
    for (const path of filesOf(number)) {
      const { res } = await callWith(D1_DOWN, "GET", path);
      expect(res.status, path).toBe(200);
    }
  });

  it("a title never checked in this isolate still answers 503 (its segments, which need no check, still serve)", async () => {
    const [, { number }] = media;
    for (const path of [`/stream/${number}/${streamNames.master}`, `/${number}.mp4`]) {
      const { res, text } = await callWith(D1_DOWN, "GET", path);
      expect(res.status, path).toBe(503);
      expect(res.headers.get("Retry-After"), path).toBeTruthy();
      expect(text, path).toContain("媒体服务暂时不可用，请稍后重试");
    }
  });

  it("a title unpublished since is not served once the content version says so", async () => {
    const [, , { number, title }] = media;
    for (const path of filesOf(number)) expect((await callWith(R2_ONLY, "GET", path)).res.status, path).toBe(200);
    await env.DB.batch([
      env.DB.prepare("UPDATE catalogue_titles SET state = 'unpublished' WHERE id = ?").bind(title),
      env.DB.prepare("UPDATE content_versions SET version = version + 1 WHERE kind = 'catalogue'"),
    ]);
    forgetContentTag(); // the 5 s memo of the version is over
    try {
      // The title's own check fails, but the version is readable and has changed: the memo does not stand.
      for (const path of [`/stream/${number}/${streamNames.master}`, `/${number}.mp4`]) {
        const { res } = await callWith({ ...R2_ONLY, DB: visibilityFailingDb() }, "GET", path);
        expect(res.status, path).toBe(503);
      }
      // With D1 back, it is gone.
      expect((await callWith(R2_ONLY, "GET", `/stream/${number}/${streamNames.master}`)).res.status).toBe(404);
    } finally {
      await env.DB.batch([
        env.DB.prepare("UPDATE catalogue_titles SET state = 'published' WHERE id = ?").bind(title),
        env.DB.prepare("UPDATE content_versions SET version = version + 1 WHERE kind = 'catalogue'"),
      ]);
      forgetContentTag();
    }
  });
});
