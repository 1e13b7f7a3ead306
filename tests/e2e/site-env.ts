import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * The e2e site's own local state (`wrangler dev --persist-to`): the accounts, plays and 弹幕 the
 * tests write never land in the state `npm start` serves, and a running `npm start` never
 * changes what the tests see.
 */
export const E2E_STATE = path.join(root, ".wrangler/e2e-state");

/**
 * The e2e site's media: packed into their own directory with x264's `ultrafast` preset (about
 * 40 % less encoding time than `superfast`, larger files; the same 270p/360p/720p ladder, lengths
 * and rate caps as `npm start`), so a fresh clone's `npm test` packs faster, and alternating
 * `npm test` and `npm start` never repacks either's media (scripts/media/titles.ts reads these).
 */
export const E2E_MEDIA_ENV = {
  MEDIA_DIR: ".media-cache/e2e-titles",
  MEDIA_PRESET: "ultrafast",
} as const;
