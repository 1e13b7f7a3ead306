/**
 * The site's configuration: texts and addresses that come from the worker's variables
 * (wrangler.toml [vars], secrets, .dev.vars), with one set of defaults. The defaults live in
 * shared/site-defaults.json so that the scripts (plain Node) read the same values; the worker
 * (worker/config.ts, which parses the variables and applies them) and the client read them
 * through this module.
 */
import defaults from "./site-defaults.json";

/** Texts and addresses that come from configuration (wrangler vars), with defaults. */
export interface SiteConfig {
  siteName: string;
  /** Absolute origin used for canonical links and structured data, e.g. https://example.com */
  origin: string;
  businessContact: string;
  filingNumber: string;
  cultureLicence: string;
  /** The home page's hero heading and the line under it. */
  heroTitle: string;
  heroText: string;
}

/** The defaults of every configurable text (spec §1, §2): what the site shows when no variable is set. */
export const DEFAULT_SITE_CONFIG: Readonly<Omit<SiteConfig, "origin">> = Object.freeze(defaults satisfies Omit<SiteConfig, "origin">);

/** The defaults with an origin: what the pages show before (or without) the worker's configuration. */
export function defaultSiteConfig(origin: string): SiteConfig {
  return { ...DEFAULT_SITE_CONFIG, origin };
}

/** Copyright year of the footer (spec §2). */
export const COPYRIGHT_YEAR = 2025;

/**
 * The site's variables once worker/config.ts validated them: texts trimmed with the defaults
 * above applied, SITE_URL an absolute http(s) URL or unset. Only that module parses variables;
 * this one (shared, free of worker code) builds the settings from its output.
 */
export interface SiteVariables {
  SITE_NAME: string;
  SITE_URL?: string;
  BUSINESS_CONTACT: string;
  FILING_NUMBER: string;
  CULTURE_LICENCE: string;
  /** Absent → the defaults (callers that only set the footer texts). */
  HERO_TITLE?: string;
  HERO_TEXT?: string;
}

/** The site's settings: SITE_URL's origin when it is set, else the request's; a SITE_URL that is not an absolute URL is refused (an error), never ignored. */
export function siteConfigFrom(vars: SiteVariables, requestOrigin: string): SiteConfig {
  if (vars.SITE_URL !== undefined && !URL.canParse(vars.SITE_URL)) throw new Error(`SITE_URL: must be an absolute URL (got ${JSON.stringify(vars.SITE_URL)})`);
  return {
    siteName: vars.SITE_NAME,
    origin: vars.SITE_URL !== undefined ? new URL(vars.SITE_URL).origin : requestOrigin,
    businessContact: vars.BUSINESS_CONTACT,
    filingNumber: vars.FILING_NUMBER,
    cultureLicence: vars.CULTURE_LICENCE,
    heroTitle: vars.HERO_TITLE ?? DEFAULT_SITE_CONFIG.heroTitle,
    heroText: vars.HERO_TEXT ?? DEFAULT_SITE_CONFIG.heroText,
  };
}
