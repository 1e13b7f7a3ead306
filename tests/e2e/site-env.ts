import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * The e2e site's own local state (`wrangler dev --persist-to`): the accounts, plays and 弹幕 the
 * tests write never land in the state `npm start` serves, and a running `npm start` never
 * changes what the tests see. Every run starts it afresh (tests/e2e/global-setup.ts: all but the
 * seeded media bucket is removed first).
 */
export const E2E_STATE = path.join(root, ".wrangler/e2e-state");

/**
 * The e2e site's media, in their own directory (alternating `npm test` and `npm start` never
 * repacks either's media; scripts/media/titles.ts reads these): the first title's clip and the
 * first other episode's, packed with the same ladder, lengths and rate caps as `npm start`, and
 * copied to every other media number. The tests play and switch renditions, seek, read
 * subtitles and storyboards; none of them needs each title's clip to differ, and packing 119
 * clips took minutes of both cores on a fresh clone (docs/decisions/0053-test-run-time.md).
 * That the film's and the episode's numbers each serve their own pack: tests/e2e/media-identity.test.ts.
 */
export const E2E_MEDIA_ENV = {
  MEDIA_DIR: ".media-cache/e2e-titles",
  MEDIA_SHARED: "1",
} as const;
