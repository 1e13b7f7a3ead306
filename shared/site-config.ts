/** Texts and addresses that come from configuration (wrangler vars), with defaults. */
export interface SiteConfig {
  siteName: string;
  /** Absolute origin used for canonical links and structured data, e.g. https://example.com */
  origin: string;
  businessContact: string;
  filingNumber: string;
  cultureLicence: string;
}

export const DEFAULT_SITE_CONFIG: Omit<SiteConfig, "origin"> = {
  siteName: "影视站",
  businessContact: "商务合作请联系：微信 yingshi_bd",
  filingNumber: "京ICP备2025000000号-1",
  cultureLicence: "网络文化经营许可证：京网文〔2025〕0000-000号",
};

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
