// @ts-check
/**
 * The site's default texts for the scripts: the same file that shared/site-config.ts reads
 * (shared/site-defaults.json), so a script never carries its own copy of the site's name.
 */
import fs from "node:fs";
import { parseJson } from "./json.mjs";

/** @returns {Omit<import("../shared/site-config").SiteConfig, "origin">} */
export function siteDefaults() {
  return /** @type {Omit<import("../shared/site-config").SiteConfig, "origin">} */ (
    parseJson(fs.readFileSync(new URL("../shared/site-defaults.json", import.meta.url), "utf8"))
  );
}
