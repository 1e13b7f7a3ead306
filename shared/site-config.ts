/**
 * The site's configuration: texts and addresses that come from the worker's variables
 * (wrangler.toml [vars], secrets, .dev.vars), with one set of defaults. The defaults live in
 * shared/site-defaults.json so that the scripts (plain Node) read the same values; the worker and
 * the client read them through this module.
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
}

/** The defaults of every configurable text (spec §1, §2): what the site shows when no variable is set. */
export const DEFAULT_SITE_CONFIG: Readonly<Omit<SiteConfig, "origin">> = Object.freeze(defaults satisfies Omit<SiteConfig, "origin">);

/** The defaults with an origin: what the pages show before (or without) the worker's configuration. */
export function defaultSiteConfig(origin: string): SiteConfig {
  return { ...DEFAULT_SITE_CONFIG, origin };
}

/** Copyright year of the footer (spec §2). */
export const COPYRIGHT_YEAR = 2025;

type ConfigSource = Partial<Record<"SITE_NAME" | "SITE_URL" | "BUSINESS_CONTACT" | "FILING_NUMBER" | "CULTURE_LICENCE", string>>;

/** Site configuration from the worker's variables; blank values fall back to the defaults. */
export function siteConfigFrom(vars: ConfigSource, requestOrigin: string): SiteConfig {
  const pick = (value: string | undefined, fallback: string) => (value && value.trim() ? value.trim() : fallback);
  let origin = requestOrigin;
  if (vars.SITE_URL) {
    try {
      origin = new URL(vars.SITE_URL).origin;
    } catch {
      // A malformed SITE_URL is ignored: the request's own origin is right for local use.
    }
  }
  return {
    siteName: pick(vars.SITE_NAME, DEFAULT_SITE_CONFIG.siteName),
    origin,
    businessContact: pick(vars.BUSINESS_CONTACT, DEFAULT_SITE_CONFIG.businessContact),
    filingNumber: pick(vars.FILING_NUMBER, DEFAULT_SITE_CONFIG.filingNumber),
    cultureLicence: pick(vars.CULTURE_LICENCE, DEFAULT_SITE_CONFIG.cultureLicence),
  };
}
