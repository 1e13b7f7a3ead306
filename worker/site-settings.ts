/**
 * 站点设置 at run time (docs/decisions/0073-admin-settings-and-cache.md): the texts an admin saved
 * on the web (D1 `site_settings`, one row: the variables it overrides, and a version that goes up
 * with every save) over the wrangler variables, validated by worker/config.ts's schema.
 *
 * A request reads the row at most once, and an isolate at most once per SETTINGS_MEMO_MS: the
 * version is part of every edge-cache key (worker/page-cache.ts, worker/edge-answers.ts), so a
 * save reaches every cached page and answer within SETTINGS_MEMO_MS plus nothing — the old keys
 * are simply never asked again.
 */
import type { SiteConfig } from "../shared/site-config";
import { configOf, parseConfig, siteConfigOf, type Config, type SiteSettingKey } from "./config";

/** How long an isolate trusts the settings it read (a save is visible everywhere within this). */
export const SETTINGS_MEMO_MS = 30_000;

export interface StoredSettings {
  /** The variables' texts the admin set (keys of SITE_SETTING_ENTRIES); an absent key falls back to the variable. */
  values: Partial<Record<SiteSettingKey, string>>;
  version: number;
  updatedAt: number;
}

const NONE: StoredSettings = { values: {}, version: 0, updatedAt: 0 };

let memo: { readAt: number; settings: StoredSettings } | null = null;

function parseValues(text: string): StoredSettings["values"] {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => typeof v === "string"));
  } catch {
    return {};
  }
}

/** The row as D1 holds it now (no memo). */
export async function readStoredSettings(db: D1Database): Promise<StoredSettings> {
  const row = await db
    .prepare("SELECT settings, version, updated_at FROM site_settings WHERE id = 1")
    .first<{ settings: string; version: number; updated_at: number }>();
  return row ? { values: parseValues(row.settings), version: row.version, updatedAt: row.updated_at } : NONE;
}

/**
 * The settings, from this isolate's memo when it is younger than SETTINGS_MEMO_MS. A database
 * that does not answer leaves the variables in force (and the memo as it was).
 */
export async function siteSettings(db: D1Database, nowMs = Date.now()): Promise<StoredSettings> {
  if (memo && nowMs - memo.readAt < SETTINGS_MEMO_MS && nowMs >= memo.readAt) return memo.settings;
  try {
    const settings = await readStoredSettings(db);
    memo = { readAt: nowMs, settings };
    return settings;
  } catch (error) {
    console.error("site settings unavailable, the variables apply", error);
    return memo?.settings ?? NONE;
  }
}

/** This isolate saw a save (its own): the next read goes to D1. */
export function forgetSiteSettings(): void {
  memo = null;
}

const effective = new WeakMap<object, { version: number; config: Config }>();

/** The configuration with the settings over the variables (parsed once per bindings and version). */
export function configWithSettings(env: Env, settings: StoredSettings): Config {
  if (settings.version === 0 || Object.keys(settings.values).length === 0) return configOf(env);
  // Keyed on the parsed variables, which a request's rebound bindings share (worker/config.ts withBindings).
  const base = configOf(env);
  const known = effective.get(base);
  if (known && known.version === settings.version) return known.config;
  const result = parseConfig({ ...(env as unknown as Record<string, unknown>), ...settings.values });
  if (!result.ok) {
    // Saved settings passed the same schema; a later, stricter schema must not stop the site.
    console.error(`site settings ignored: ${result.message}`);
    return configOf(env);
  }
  effective.set(base, { version: settings.version, config: result.config });
  return result.config;
}

/** What these functions need of a request's context (the viewer app's and the admin's alike). */
interface AnyContext {
  env: Env;
  req: { raw: Request; url: string };
}

const perRequest = new WeakMap<Request, Promise<StoredSettings>>();

/** The request's settings, read once per request (and at most once per SETTINGS_MEMO_MS per isolate). */
export function requestSettings(c: AnyContext): Promise<StoredSettings> {
  let read = perRequest.get(c.req.raw);
  if (!read) {
    read = siteSettings(c.env.DB);
    perRequest.set(c.req.raw, read);
  }
  return read;
}

/** The site's texts of this request: the variables with the saved settings over them. */
export async function siteConfigFor(c: AnyContext): Promise<SiteConfig> {
  return siteConfigOf(c.env, c.req.url, configWithSettings(c.env, await requestSettings(c)));
}

/** The request's configuration with the settings applied (热门搜索, …). */
export async function configFor(c: AnyContext): Promise<Config> {
  return configWithSettings(c.env, await requestSettings(c));
}

/** The part of an edge-cache key that changes with every save of the settings. */
export async function settingsKey(c: AnyContext): Promise<string> {
  return String((await requestSettings(c)).version);
}
