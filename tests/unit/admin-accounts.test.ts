// 用户管理's pure parts (shared/admin/accounts.ts, account-state.ts) and 概览's (overview.ts): the
// requests a real Supabase project's admin API gets (no network: their shapes), its answers
// read, what counts as disabled, the page numbers, and the day series with its sums and bars.
import { describe, expect, it } from "vitest";
import {
  accountOfSupabaseUser,
  accountPageNumber,
  accountPageOfSupabase,
  accountQuery,
  banRequest,
  deleteUserRequest,
  userPageRequest,
  userRequest,
} from "../../shared/admin/accounts";
import { isDisabledUser } from "../../shared/admin/account-state";
import { barChart, byteSize, lastDays, windowsOf } from "../../shared/admin/overview";

const URL_ = "https://proj.supabase.co";
const KEY = "service-role-key";
const HEADERS = { apikey: KEY, Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" };
const NOW = Date.parse("2026-05-10T12:00:00Z");

describe("Supabase admin API requests", () => {
  it("list users a page at a time, narrowed by e-mail", () => {
    expect(userPageRequest(URL_, KEY, 3, "a@b")).toEqual({
      method: "GET",
      url: "https://proj.supabase.co/auth/v1/admin/users?page=3&per_page=50&filter=a%40b",
      headers: HEADERS,
    });
    expect(userPageRequest(URL_, KEY, 1, "").url).toBe("https://proj.supabase.co/auth/v1/admin/users?page=1&per_page=50");
  });

  it("disable is a ban of 876000h, enable a ban of none (GoTrue's PUT /admin/users/{id})", () => {
    expect(banRequest(URL_, KEY, "u/1", true)).toEqual({
      method: "PUT",
      url: "https://proj.supabase.co/auth/v1/admin/users/u%2F1",
      headers: HEADERS,
      body: '{"ban_duration":"876000h"}',
    });
    expect(JSON.parse(banRequest(URL_, KEY, "u1", false).body!)).toEqual({ ban_duration: "none" });
  });

  it("delete removes the user for good; one user is read by id", () => {
    expect(deleteUserRequest(URL_, KEY, "u1")).toEqual({
      method: "DELETE",
      url: "https://proj.supabase.co/auth/v1/admin/users/u1",
      headers: HEADERS,
      body: '{"should_soft_delete":false}',
    });
    expect(userRequest(URL_, KEY, "u1")).toEqual({ method: "GET", url: "https://proj.supabase.co/auth/v1/admin/users/u1", headers: HEADERS });
  });

  it("reads a list answer: state, role and the total from X-Total-Count", () => {
    const users = [
      { id: "1", email: "A@x.com", created_at: "2026-01-01T00:00:00Z", email_confirmed_at: "2026-01-01T00:00:00Z", app_metadata: { role: "admin" } },
      {
        id: "2",
        email: "b@x.com",
        created_at: "2026-01-02T00:00:00Z",
        email_confirmed_at: "x",
        banned_until: "2126-01-01T00:00:00Z",
        last_sign_in_at: "2026-02-01T00:00:00Z",
      },
      { id: "3", email: "c@x.com", created_at: "2026-01-03T00:00:00Z" },
      { email: "no-id@x.com" },
    ];
    const page = accountPageOfSupabase({ users, aud: "authenticated" }, "120", 2, NOW);
    expect(page).toMatchObject({ total: 120, page: 2, pageCount: 3 });
    expect(page.accounts.map((a) => [a.email, a.state, a.role])).toEqual([
      ["a@x.com", "active", "admin"],
      ["b@x.com", "disabled", null],
      ["c@x.com", "unconfirmed", null],
    ]);
    expect(page.accounts[1].lastSignInAt).toBe("2026-02-01T00:00:00Z");
    expect(() => accountPageOfSupabase({ error: "x" }, null, 1, NOW)).toThrow(/unexpected answer/);
    expect(accountOfSupabaseUser(null, NOW)).toBeNull();
  });
});

describe("disabled", () => {
  it("is banned_until ahead of now, on either service's user object", () => {
    expect(isDisabledUser({ banned_until: "2026-05-10T12:00:01Z" }, NOW)).toBe(true);
    expect(isDisabledUser({ banned_until: "2026-05-10T12:00:00Z" }, NOW)).toBe(false);
    expect(isDisabledUser({}, NOW)).toBe(false);
    expect(isDisabledUser({ banned_until: null }, NOW)).toBe(false);
    expect(isDisabledUser({ banned_until: "" }, NOW)).toBe(false);
    expect(isDisabledUser({ banned_until: "garbled" }, NOW)).toBe(true);
  });
});

describe("the search box and the pages", () => {
  it("normalises the query and bounds the page number", () => {
    expect(accountQuery("  Foo@Bar ")).toBe("foo@bar");
    expect(accountQuery("x".repeat(300))).toHaveLength(100);
    expect(accountPageNumber("3")).toBe(3);
    for (const bad of [undefined, "", "0", "-1", "1e3", "abc"]) expect(accountPageNumber(bad)).toBe(1);
    expect(accountPageNumber("9999")).toBe(400);
  });
});

describe("概览's series", () => {
  it("fills 30 UTC days, sums today / 7 / 30, and draws bars in proportion", () => {
    const series = lastDays(
      [
        { day: "2026-05-10", count: 4 },
        { day: "2026-05-04", count: 2 },
        { day: "2026-05-03", count: 8 },
        { day: "2026-04-10", count: 100 },
      ],
      NOW,
    );
    expect(series).toHaveLength(30);
    expect(series[0].day).toBe("2026-04-11");
    expect(series.at(-1)).toEqual({ day: "2026-05-10", count: 4 });
    expect(windowsOf(series)).toEqual({ today: 4, week: 6, month: 14 });
    const chart = barChart(series, 600, 180, 20);
    expect(chart.max).toBe(8);
    const tallest = chart.bars.find((b) => b.day === "2026-05-03")!;
    expect(tallest.y + tallest.height).toBeCloseTo(160);
    expect(tallest.height).toBeCloseTo(156);
    expect(chart.bars.find((b) => b.day === "2026-05-10")!.height).toBeCloseTo(78);
    expect(chart.bars.every((b) => b.x >= 0 && b.x + b.width <= 600)).toBe(true);
    expect(barChart(lastDays([], NOW)).bars.every((b) => b.height === 0)).toBe(true);
  });

  it("sizes in bytes", () => {
    expect(byteSize(0)).toBe("0 B");
    expect(byteSize(1536)).toBe("1.5 KB");
    expect(byteSize(340 * 1024 * 1024)).toBe("340 MB");
    expect(byteSize(1.25 * 1024 ** 3)).toBe("1.3 GB");
  });
});
