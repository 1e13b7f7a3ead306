/**
 * GET /tvbox.json — a TVBox-style configuration (TVBox, 影视仓 and their forks) that lists this
 * site's provide API (./provide.ts, docs/provide-api.md) as one searchable site, so a TV box adds
 * the whole site by one URL (docs/provide-api.md "/tvbox.json", decision 0106).
 */
import type { AppContext } from "../app-env";
import { siteConfigFor } from "../site-settings";

/** The site's key in the app (apps remember the home site by it: never change it). */
export const TVBOX_SITE_KEY = "yingshi";

/** Where the provide API answers JSON (TVBox type 1). */
export const PROVIDE_API_PATH = "/api.php/provide/vod/";

/** One `sites` entry: the fields every TVBox fork reads for a type 1 (MacCMS JSON) site. */
export interface TvboxSite {
  key: string;
  name: string;
  /** 1: MacCMS JSON (the app calls `api` with ac, t, pg, ids, wd). */
  type: 1;
  api: string;
  searchable: 0 | 1;
  quickSearch: 0 | 1;
  filterable: 0 | 1;
  changeable: 0 | 1;
}

/** One IJK decoder choice: apps offer them in their settings and play with the first one by default. */
interface IjkGroup {
  group: string;
  options: { category: number; name: string; value: string }[];
}

export interface TvboxConfig {
  sites: TvboxSite[];
  lives: never[];
  parses: never[];
  flags: never[];
  ads: never[];
  ijk: IjkGroup[];
}

/**
 * The configuration for a site at `origin` named `siteName`. Besides `sites`, the keys older TVBox
 * builds read without checking that they exist (`parses`, `lives`, `ads`, `ijk`: a configuration
 * without them fails to load there), empty or minimal: this site has no live channels, needs no
 * parsers and has no ads to block; the IJK groups are the software and hardware decoders.
 */
export function tvboxConfig(origin: string, siteName: string): TvboxConfig {
  return {
    sites: [
      {
        key: TVBOX_SITE_KEY,
        name: siteName,
        type: 1,
        api: origin + PROVIDE_API_PATH,
        searchable: 1,
        quickSearch: 1,
        filterable: 1,
        changeable: 0,
      },
    ],
    lives: [],
    parses: [],
    flags: [],
    ads: [],
    ijk: [
      { group: "软解码", options: [{ category: 4, name: "mediacodec", value: "0" }] },
      { group: "硬解码", options: [{ category: 4, name: "mediacodec", value: "1" }] },
    ],
  };
}

/** Apps read it when the viewer adds or refreshes the source: an hour is fresh enough. */
export const TVBOX_CACHE = "public, max-age=3600";

/** GET /tvbox.json on the site's configured URL (SITE_URL, else the request's origin), with the name of 站点设置. */
export async function tvboxHandler(c: AppContext): Promise<Response> {
  const site = await siteConfigFor(c);
  return c.body(JSON.stringify(tvboxConfig(site.origin, site.siteName)), 200, {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": TVBOX_CACHE,
    "Access-Control-Allow-Origin": "*",
  });
}
