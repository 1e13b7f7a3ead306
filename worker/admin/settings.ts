/**
 * 站点设置 on the web (docs/decisions/0073-admin-settings-and-cache.md): the texts of
 * SITE_SETTING_ENTRIES, validated by those very schema entries of worker/config.ts. A field left
 * blank is not stored and falls back to the wrangler variable. A save names the version it
 * was made from: a second admin saving over a newer version is refused, never a silent overwrite.
 */
import * as v from "valibot";
import { configOf, SITE_SETTING_ENTRIES, type SiteSettingKey } from "../config";
import { forgetSiteSettings, readStoredSettings } from "../site-settings";
import type { AdminVisitor } from "./access";
import type { Result } from "./actions";
import { auditStatement, prepared } from "./audit";

/** The fields in the form's order, with their Chinese labels and what they are for. */
export const SETTING_FIELDS: readonly { key: SiteSettingKey; label: string; hint: string; multiline?: boolean }[] = [
  { key: "SITE_NAME", label: "网站名称", hint: "标题、页头和页脚中的名称" },
  { key: "BUSINESS_CONTACT", label: "商务合作", hint: "页脚、详情页和联系页中的商务联系方式" },
  { key: "FILING_NUMBER", label: "备案号", hint: "页脚的 ICP 备案号" },
  { key: "CULTURE_LICENCE", label: "网络文化经营许可证", hint: "页脚的许可证一行" },
  { key: "HERO_TITLE", label: "首页主标题", hint: "首页顶部的大标题" },
  { key: "HERO_TEXT", label: "首页副标题", hint: "主标题下的一行说明" },
  { key: "HOT_SEARCHES", label: "热门搜索", hint: "搜索框为空时推荐的词，用逗号或换行分隔，最多10个；留空则推荐评分最高的作品", multiline: true },
];

const LABELS = Object.fromEntries(SETTING_FIELDS.map((f) => [f.key, f.label])) as Record<SiteSettingKey, string>;

export interface SettingView {
  key: SiteSettingKey;
  label: string;
  hint: string;
  multiline: boolean;
  /** What the admin saved ("" = not set: the variable applies). */
  value: string;
  /** The variable's value (wrangler.toml, or the built-in default). */
  fallback: string;
}

export interface SettingsView {
  version: number;
  updatedAt: number;
  fields: SettingView[];
}

function variableText(env: Env, key: SiteSettingKey): string {
  const value = configOf(env)[key];
  return Array.isArray(value) ? value.join("，") : value;
}

export async function settingsView(env: Env): Promise<SettingsView> {
  const stored = await readStoredSettings(env.DB);
  return {
    version: stored.version,
    updatedAt: stored.updatedAt,
    fields: SETTING_FIELDS.map((f) => ({
      key: f.key,
      label: f.label,
      hint: f.hint,
      multiline: f.multiline ?? false,
      value: stored.values[f.key] ?? "",
      fallback: variableText(env, f.key),
    })),
  };
}

export const SETTINGS_MESSAGES = {
  changed: "站点设置已被其他管理员修改，请刷新页面后重新填写",
  version: "缺少设置版本，请刷新页面后重试",
} as const;

/** The non-blank texts of a form or JSON body, each trimmed (new lines kept only where a field allows them). */
function submitted(input: Record<string, unknown>): Partial<Record<SiteSettingKey, string>> {
  const out: Partial<Record<SiteSettingKey, string>> = {};
  for (const f of SETTING_FIELDS) {
    const raw = input[f.key];
    if (typeof raw !== "string") continue;
    const text = f.multiline ? raw.replace(/\r\n?/g, "\n").trim() : raw.trim();
    if (text) out[f.key] = text;
  }
  return out;
}

/** The first problem of the texts, as "网站名称：不能超过20个字"; null when all pass worker/config.ts's entries. */
export function settingsProblem(values: Partial<Record<SiteSettingKey, string>>): string | null {
  const result = v.safeParse(v.object(SITE_SETTING_ENTRIES), values);
  if (result.success) return null;
  const issue = result.issues[0];
  const key = v.getDotPath(issue) as SiteSettingKey | null;
  return `${key ? LABELS[key] : "站点设置"}：${issue.message}`;
}

export interface SettingsSaved {
  version: number;
  changed: SiteSettingKey[];
}

export async function saveSettings(env: Env, actor: AdminVisitor, input: Record<string, unknown>): Promise<Result<SettingsSaved>> {
  const version =
    typeof input.version === "number" ? input.version : typeof input.version === "string" && /^\d+$/.test(input.version) ? Number(input.version) : NaN;
  if (!Number.isInteger(version)) return { ok: false, status: 400, code: "version_required", message: SETTINGS_MESSAGES.version };
  const values = submitted(input);
  const problem = settingsProblem(values);
  if (problem) return { ok: false, status: 400, code: "bad_setting", message: problem };
  const stored = await readStoredSettings(env.DB);
  if (stored.version !== version) return { ok: false, status: 409, code: "settings_changed", message: SETTINGS_MESSAGES.changed };
  const changed = SETTING_FIELDS.map((f) => f.key).filter((key) => (stored.values[key] ?? "") !== (values[key] ?? ""));
  if (changed.length === 0) return { ok: true, value: { version, changed } };
  const nowMs = Date.now();
  const pick = (from: Partial<Record<SiteSettingKey, string>>) => Object.fromEntries(changed.map((key) => [key, from[key] ?? null]));
  const audit = auditStatement(
    { actorId: actor.userId, actorEmail: actor.email, action: "settings.update", target: "站点设置", before: pick(stored.values), after: pick(values) },
    nowMs,
  );
  const [updated] = await env.DB.batch([
    env.DB.prepare("UPDATE site_settings SET settings = ?, version = version + 1, updated_at = ? WHERE id = 1 AND version = ?").bind(
      JSON.stringify(values),
      nowMs,
      version,
    ),
    // The audit row only when the update above changed the row (the same transaction).
    prepared(env.DB, { sql: `${audit.sql.replace(" VALUES (?, ?, ?, ?, ?, ?, ?)", " SELECT ?, ?, ?, ?, ?, ?, ? WHERE changes() = 1")}`, params: audit.params }),
  ]);
  if (updated.meta.changes !== 1) return { ok: false, status: 409, code: "settings_changed", message: SETTINGS_MESSAGES.changed };
  forgetSiteSettings();
  return { ok: true, value: { version: version + 1, changed } };
}
