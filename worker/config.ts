/**
 * The worker's configuration: one valibot schema for every variable (wrangler.toml [vars],
 * secrets, .dev.vars), and the only module that reads them from the bindings: everything else
 * asks `configOf(env)` (eslint.config.js refuses a raw `env.NAME` read of a variable elsewhere).
 * Booleans parse as booleans ("0", "false", "off", "no" are false), numbers as numbers, URLs as
 * URLs, texts are trimmed with their defaults applied; a bad value is an error that names the
 * variable, and the worker refuses to serve until it is fixed (worker/index.ts answers 503 and
 * logs the message). The schema's keys declare the variables on `Env` (env.variables.d.ts).
 */
import * as v from "valibot";
import { DEFAULT_SITE_CONFIG, siteConfigFrom, type SiteConfig } from "../shared/site-config";
import { DEFAULT_SHARD_SIZE } from "../shared/danmaku/shards";
import { isLocalHost } from "./local-host";

const TRUE_WORDS = ["1", "true", "yes", "on"];
const FALSE_WORDS = ["0", "false", "no", "off"];

/** A boolean variable: a TOML boolean, or one of the words above (any case); absent → `fallback`. */
function flag(fallback: boolean) {
  return v.optional(
    v.pipe(
      v.union([v.boolean(), v.string()]),
      v.transform((value) => (typeof value === "boolean" ? value : value.trim().toLowerCase())),
      v.check(
        (value) => typeof value === "boolean" || TRUE_WORDS.includes(value) || FALSE_WORDS.includes(value),
        `must be one of ${[...TRUE_WORDS, ...FALSE_WORDS].join(", ")}`,
      ),
      v.transform((value) => (typeof value === "boolean" ? value : TRUE_WORDS.includes(value))),
    ),
    fallback,
  );
}

/** A whole number in [min, max]: a TOML number or its decimal text; absent → `fallback`. */
function whole(fallback: number, min: number, max: number) {
  return v.optional(
    v.pipe(
      v.union([v.number(), v.string()], "must be a whole number"),
      v.transform((value) => (typeof value === "number" ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN)),
      v.integer("must be a whole number"),
      v.minValue(min, `must be at least ${min}`),
      v.maxValue(max, `must be at most ${max}`),
    ),
    fallback,
  );
}

/** Free text; blank counts as unset. */
const text = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.transform((value) => value || undefined),
  ),
);

/** An absolute http(s) URL; blank counts as unset. */
const httpUrl = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.transform((value) => value || undefined),
    v.optional(v.pipe(v.string(), v.url("must be an absolute URL"), v.regex(/^https?:\/\//i, "must start with http:// or https://"))),
  ),
);

/** A site text: trimmed, at most `max` characters (code points), blank or absent → `fallback`. */
function siteText(fallback: string, max: number) {
  return v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.check((value) => [...value].length <= max, `不能超过${max}个字`),
      v.check((value) => !/[\r\n]/.test(value), "不能换行"),
      v.transform((value) => value || fallback),
    ),
    fallback,
  );
}

/** Words separated by commas (，or ,) or new lines. */
export const wordsOf = (value: string): string[] => [
  ...new Set(
    value
      .split(/[,，\n]/)
      .map((w) => w.trim())
      .filter(Boolean),
  ),
];

/** 热门搜索: at most 10 words of at most 20 characters; none → the best-rated titles. */
const HOT_SEARCH_LIMIT = { words: 10, chars: 20 } as const;
const hotSearches = v.optional(
  v.pipe(
    v.string(),
    v.transform(wordsOf),
    v.check((words) => words.length <= HOT_SEARCH_LIMIT.words, `最多${HOT_SEARCH_LIMIT.words}个词`),
    v.check((words) => words.every((w) => [...w].length <= HOT_SEARCH_LIMIT.chars), `每个词不能超过${HOT_SEARCH_LIMIT.chars}个字`),
  ),
  "",
);

/**
 * The texts an admin can also change at run time (管理后台 站点设置): the variables are their
 * defaults, a setting saved on the web overrides one, a setting cleared falls back to it. The web
 * form is validated with these very entries (worker/admin/settings.ts).
 */
export const SITE_SETTING_ENTRIES = {
  /** The site's texts (spec §1, §2); unset or blank → shared/site-defaults.json. */
  SITE_NAME: siteText(DEFAULT_SITE_CONFIG.siteName, 20),
  BUSINESS_CONTACT: siteText(DEFAULT_SITE_CONFIG.businessContact, 100),
  FILING_NUMBER: siteText(DEFAULT_SITE_CONFIG.filingNumber, 60),
  CULTURE_LICENCE: siteText(DEFAULT_SITE_CONFIG.cultureLicence, 80),
  /** The home page's hero: its heading and the line under it. */
  HERO_TITLE: siteText(DEFAULT_SITE_CONFIG.heroTitle, 30),
  HERO_TEXT: siteText(DEFAULT_SITE_CONFIG.heroText, 120),
  /** 热门搜索 of the header's search box (commas or new lines); unset → the best-rated titles. */
  HOT_SEARCHES: hotSearches,
};

export type SiteSettingKey = keyof typeof SITE_SETTING_ENTRIES;

/** The run-time site settings: any of the entries above, each as the variable's text. */
export const SiteSettingsSchema = v.object(SITE_SETTING_ENTRIES);

const DAY_LIMIT = 3650;

export const ConfigSchema = v.pipe(
  v.object({
    ...SITE_SETTING_ENTRIES,
    /** The site's address: canonical links, structured data, links in e-mails, the 弹幕 origin check. */
    SITE_URL: httpUrl,
    SUPABASE_URL: httpUrl,
    SUPABASE_ANON_KEY: text,
    /** A real Supabase project's service-role key: the 管理后台 grants and revokes roles with it (app_metadata). Never sent to a browser. */
    SUPABASE_SERVICE_ROLE_KEY: text,
    /** HS256 key of the embedded account service; unset → a random key kept in D1. */
    AUTH_JWT_SECRET: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.transform((value) => value || undefined),
        v.optional(v.pipe(v.string(), v.minLength(32, "must be at least 32 characters (use `openssl rand -base64 48`)"))),
      ),
    ),
    /** Bearer token of the media upload endpoint (worker/upload/api.ts); unset or blank → no endpoint. */
    MEDIA_UPLOAD_TOKEN: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.transform((value) => value || undefined),
        v.optional(v.pipe(v.string(), v.minLength(32, "must be at least 32 characters (`npm run deploy` generates one)"))),
      ),
    ),
    AUTH_AUTO_CONFIRM: flag(true),
    EXPOSE_ACCOUNT_API: flag(false),
    PAGE_CACHE: v.optional(v.picklist(["on", "off"], 'must be "on" or "off"'), "on"),
    /** "off": media and stream files are read from R2 on every request (worker/http/edge-cache.ts). */
    MEDIA_CACHE: v.optional(v.picklist(["on", "off"], 'must be "on" or "off"'), "on"),
    /** "off": 弹幕 rooms of the built-in titles start without sample comments. */
    DANMAKU_SAMPLES: v.optional(v.picklist(["on", "off"], 'must be "on" or "off"'), "on"),
    /** Extra blocked words for 弹幕 (commas or new lines). */
    DANMAKU_BLOCKED_WORDS: text,
    /** Most WebSockets one 弹幕 socket shard holds before the room opens another (docs/decisions/0065-danmaku-shards.md). */
    DANMAKU_SHARD_SIZE: whole(DEFAULT_SHARD_SIZE, 1, 32_000),
    ACCOUNT_SERVICE_TIMEOUT_MS: whole(8000, 100, 60_000),
    /** The most one D1 statement, R2 read or Durable Object call waits (worker/outside-calls.ts). */
    STORAGE_TIMEOUT_MS: whole(5000, 50, 60_000),
    /** A session ends after this many days without a refresh. */
    AUTH_SESSION_INACTIVITY_DAYS: whole(30, 1, DAY_LIMIT),
    /** A session ends this many days after the sign-in, whatever happens. */
    AUTH_SESSION_LIFETIME_DAYS: whole(90, 1, DAY_LIMIT),
    /** Sender of the account e-mails, e.g. "影视站 <no-reply@example.com>". */
    MAIL_FROM: text,
    /** An HTTP mail API (POST JSON {from, to, subject, html, text}) and its bearer key. */
    MAIL_API_URL: httpUrl,
    MAIL_API_KEY: text,
  }),
  v.forward(
    v.check((c) => Boolean(c.SUPABASE_URL) === Boolean(c.SUPABASE_ANON_KEY), "SUPABASE_URL and SUPABASE_ANON_KEY are set together"),
    ["SUPABASE_ANON_KEY"],
  ),
  v.forward(
    v.check((c) => !c.SUPABASE_SERVICE_ROLE_KEY || Boolean(c.SUPABASE_URL), "SUPABASE_SERVICE_ROLE_KEY needs SUPABASE_URL"),
    ["SUPABASE_SERVICE_ROLE_KEY"],
  ),
  v.forward(
    v.check((c) => !c.MAIL_API_URL || Boolean(c.MAIL_API_KEY && c.MAIL_FROM), "MAIL_API_URL needs MAIL_API_KEY and MAIL_FROM"),
    ["MAIL_API_KEY"],
  ),
  v.forward(
    v.check((c) => c.AUTH_SESSION_INACTIVITY_DAYS <= c.AUTH_SESSION_LIFETIME_DAYS, "must not exceed AUTH_SESSION_LIFETIME_DAYS"),
    ["AUTH_SESSION_INACTIVITY_DAYS"],
  ),
);

export type Config = v.InferOutput<typeof ConfigSchema>;

/** The variables as the bindings hold them, each optional: declared on `Env` by env.variables.d.ts (the schema also takes [vars]' TOML booleans and numbers). */
export type ConfigVariables = Partial<Record<keyof v.InferInput<typeof ConfigSchema>, string>>;

export type ConfigResult = { ok: true; config: Config } | { ok: false; message: string };

/** Parses the variables; the message lists every bad variable as "NAME: what is wrong". */
export function parseConfig(vars: Record<string, unknown>): ConfigResult {
  const result = v.safeParse(ConfigSchema, vars);
  if (result.success) return { ok: true, config: result.output };
  const lines = result.issues.map((issue) => `${v.getDotPath(issue) ?? "config"}: ${issue.message}`);
  return { ok: false, message: `invalid configuration — ${lines.join("; ")}` };
}

const parsed = new WeakMap<object, ConfigResult>();

/** The configuration of a set of bindings, parsed once per bindings object. */
export function configResultOf(env: Env): ConfigResult {
  let result = parsed.get(env);
  if (!result) {
    result = parseConfig(env as unknown as Record<string, unknown>);
    parsed.set(env, result);
  }
  return result;
}

/**
 * `env` with some bindings replaced (worker/request-bindings.ts), sharing its parsed configuration:
 * the variables are the same, so they are not parsed again.
 */
export function withBindings(env: Env, bindings: Partial<Env>): Env {
  const next = { ...env, ...bindings };
  const result = parsed.get(env);
  if (result) parsed.set(next, result);
  return next;
}

/** The configuration; throws with the message when it is invalid (the worker's middleware checked it first). */
export function configOf(env: Env): Config {
  const result = configResultOf(env);
  if (!result.ok) throw new Error(result.message);
  return result.config;
}

/**
 * The site's settings of a request (root data, SEO files, feeds): from the configuration, SITE_URL's
 * origin or else the request's. Without `config`, the variables alone; a request that read the
 * 站点设置 passes their configuration (worker/site-settings.ts siteConfigFor).
 */
export function siteConfigOf(env: Env, requestUrl: string, config: Config = configOf(env)): SiteConfig {
  return siteConfigFrom(config, new URL(requestUrl).origin);
}

/**
 * The origin that links in account e-mails point at: SITE_URL's origin when it is set (a live
 * site: `npm run deploy` sets it), else — local development only — the origin of a request to
 * localhost or 127.0.0.1. Otherwise null: a link is never built from the request's Host header,
 * which anyone can set (`wrangler dev` and some proxies pass any Host through).
 */
export function mailLinkOrigin(config: Config, requestUrl: string): string | null {
  if (config.SITE_URL) return new URL(config.SITE_URL).origin;
  try {
    const url = new URL(requestUrl);
    return isLocalHost(url.hostname) ? url.origin : null;
  } catch {
    return null;
  }
}

/** The `config:` log line of an e-mail that could not be sent because SITE_URL is unset. */
export const SITE_URL_MISSING_LOG =
  "config: SITE_URL is not set and the request is not from localhost — account e-mails are not sent (their links would come from the request's Host header); set SITE_URL to the site's address";
