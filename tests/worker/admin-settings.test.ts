// 站点设置 (worker/admin/settings.ts, worker/site-settings.ts): texts saved on the web override the
// wrangler variables, pass worker/config.ts's own schema entries (Chinese messages), fall back to
// the variable when cleared, refuse a save over a newer version, reach the edge-cached pages and
// answers at once in this isolate (the settings version is in the cache keys) and within
// SETTINGS_MEMO_MS in any other, and leave an audit row with before → after.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SITE_CONFIG } from "../../shared/site-config";
import { parseConfig } from "../../worker/config";
import { readStoredSettings, SETTINGS_MEMO_MS, siteSettings } from "../../worker/site-settings";
import { call, callRead } from "./helpers/visitor";
import { enrolledHolder, post, type RoleHolder } from "./helpers/admin";

let admin: RoleHolder;

beforeAll(async () => {
  admin = await enrolledHolder("admin", "settings-admin");
});

interface View {
  version: number;
  fields: { key: string; value: string; fallback: string }[];
}

async function view(): Promise<View> {
  const res = await call("GET", "/api/admin/settings", { jar: admin.jar });
  expect(res.status).toBe(200);
  return res.json<View>();
}

async function save(values: Record<string, string>, version?: number) {
  const res = await post("/api/admin/settings", admin.jar, { ...values, version: version ?? (await view()).version });
  return { status: res.status, body: await res.json<{ version?: number; error?: { code: string; message: string } }>() };
}

const homeHtml = async () => (await callRead("GET", "/")).text;

describe("站点设置", () => {
  it("a saved text shows on the cached pages at once, a cleared one falls back to the variable; each save is audited", async () => {
    const before = await view();
    expect(before.fields.find((f) => f.key === "SITE_NAME")).toMatchObject({ value: "", fallback: DEFAULT_SITE_CONFIG.siteName });

    // The home page is cached at the edge (a second request is a hit).
    await callRead("GET", "/");
    const hit = await callRead("GET", "/");
    expect(hit.res.headers.get("X-Cache")).toBe("HIT");

    const saved = await save({ SITE_NAME: " 新站名 ", HERO_TITLE: "今晚看什么", FILING_NUMBER: "" });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.version).toBe(before.version + 1);
    const after = await callRead("GET", "/");
    expect(after.res.headers.get("X-Cache")).toBe("MISS");
    expect(after.text).toContain("今晚看什么");
    expect(after.text).toContain("新站名");
    expect(after.text).toContain(DEFAULT_SITE_CONFIG.filingNumber);

    const entries = await (
      await call("GET", "/api/admin/audit?action=settings.update", { jar: admin.jar })
    ).json<{
      entries: { actorEmail: string; target: string; before: unknown; after: unknown }[];
    }>();
    expect(entries.entries[0]).toMatchObject({
      actorEmail: admin.email,
      target: "站点设置",
      before: { SITE_NAME: null, HERO_TITLE: null },
      after: { SITE_NAME: "新站名", HERO_TITLE: "今晚看什么" },
    });

    // Cleared: the variable (here the built-in default) again.
    expect((await save({ HERO_TITLE: "今晚看什么" })).status).toBe(200);
    const cleared = await homeHtml();
    expect(cleared).not.toContain("新站名");
    expect(cleared).toContain(DEFAULT_SITE_CONFIG.siteName);
    expect(cleared).toContain("今晚看什么");
    expect((await save({})).status).toBe(200);
    expect(await homeHtml()).toContain(DEFAULT_SITE_CONFIG.heroTitle);
  });

  it("热门搜索 replace the best-rated titles in the empty search box", async () => {
    const plain = await (await call("GET", "/api/search/suggest?q=")).json<{ hot: string[] }>();
    expect(plain.hot.length).toBeGreaterThan(0);
    expect((await save({ HOT_SEARCHES: "雾港，  星河\n雾港, 山海" })).status).toBe(200);
    const res = await call("GET", "/api/search/suggest?q=");
    expect((await res.json<{ hot: string[] }>()).hot).toEqual(["雾港", "星河", "山海"]);
    expect(res.headers.get("Cache-Control")).toContain("max-age=30,");
    expect((await save({})).status).toBe(200);
    expect((await (await call("GET", "/api/search/suggest?q=")).json<{ hot: string[] }>()).hot).toEqual(plain.hot);
  });

  it("refuses what worker/config.ts refuses, in Chinese, and changes nothing", async () => {
    const version = (await view()).version;
    for (const [values, message] of [
      [{ SITE_NAME: "名".repeat(21) }, "网站名称：不能超过20个字"],
      [{ HERO_TEXT: "第一行\n第二行" }, "首页副标题：不能换行"],
      [{ HOT_SEARCHES: Array.from({ length: 11 }, (_, i) => `词${i}`).join(",") }, "热门搜索：最多10个词"],
      [{ HOT_SEARCHES: "好".repeat(21) }, "热门搜索：每个词不能超过20个字"],
    ] as const) {
      const refused = await save(values, version);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toEqual({ code: "bad_setting", message });
    }
    expect((await view()).version).toBe(version);
    // The same entries refuse the same text as a wrangler variable.
    const variable = parseConfig({ SITE_NAME: "名".repeat(21) });
    expect(variable.ok).toBe(false);
    if (!variable.ok) expect(variable.message).toContain("SITE_NAME: 不能超过20个字");
  });

  it("a save made from an older version is refused (two admins), never a silent overwrite", async () => {
    const version = (await view()).version;
    expect((await save({ BUSINESS_CONTACT: "商务：甲" }, version)).status).toBe(200);
    const second = await save({ BUSINESS_CONTACT: "商务：乙" }, version);
    expect(second.status).toBe(409);
    expect(second.body.error?.message).toBe("站点设置已被其他管理员修改，请刷新页面后重新填写");
    expect((await readStoredSettings(env.DB)).values.BUSINESS_CONTACT).toBe("商务：甲");
    expect((await save({})).status).toBe(200);
  });

  it("another isolate trusts what it read for SETTINGS_MEMO_MS at most, then reads the new version", async () => {
    const now = Date.now() + 10 * SETTINGS_MEMO_MS;
    const first = await siteSettings(env.DB, now);
    await env.DB.prepare("UPDATE site_settings SET version = version + 1, settings = ? WHERE id = 1")
      .bind(JSON.stringify({ SITE_NAME: "别处改的" }))
      .run();
    expect(await siteSettings(env.DB, now + SETTINGS_MEMO_MS - 1)).toEqual(first);
    const later = await siteSettings(env.DB, now + SETTINGS_MEMO_MS);
    expect(later.version).toBe(first.version + 1);
    expect(later.values.SITE_NAME).toBe("别处改的");
    await env.DB.prepare("UPDATE site_settings SET version = version + 1, settings = '{}' WHERE id = 1").run();
    await siteSettings(env.DB, now + 3 * SETTINGS_MEMO_MS);
  });
});
