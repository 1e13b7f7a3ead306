/**
 * /admin — the 管理后台's pages (docs/decisions/0072-admin-app.md): server-rendered HTML forms
 * on its own stylesheet and script, outside the viewer pages' route table, bundle and page cache
 * (mounted before worker/pages.ts in worker/index.ts). The server decides on every request:
 * signed out → /auth?next=…; no role → 403 无权访问; a role without this session's second step →
 * the enrol or the verify screen; a moderator on an admin-only screen → 403 无权访问.
 */
import { Hono, type MiddlewareHandler } from "hono";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server.node";
import { roleAllows, ROLE_NAMES, type AdminPermission } from "../../shared/admin/roles";
import { safeRedirectPath } from "../../shared/safe-redirect";
import { readAuthBody, textField } from "../auth/body";
import { siteConfigFor } from "../site-settings";
import { MAX_BODY_BYTES } from "../request-body";
import type { AdminVisitor } from "./access";
import { finishEnrolment, grantRole, passSecondStep, revokeRole, roleHolders, startEnrolment } from "./actions";
import { auditFilterOf, readAudit } from "./audit";
import { overviewOf } from "./overview";
import { reportQueryOf, reportQueue, SETTLE_NAMES, settleActionOf, settleGroup, settleReport } from "./reports";
import { ReportsScreen } from "./views/Reports";
import { saveSettings, settingsView } from "./settings";
import { accountDetail, deleteAccount, listAccounts, setAccountDisabled, signOutAccount } from "./user-actions";
import { adminAnswers, adminBodyLimit, readAccess, sameSiteWrites, type AdminContext, type AdminEnv } from "./middleware";
import { Layout, type NavItem } from "./views/Layout";
import { OverviewScreen } from "./views/Overview";
import { AuditScreen, ForbiddenScreen, MessageScreen, RolesScreen } from "./views/Screens";
import { SettingsScreen } from "./views/Settings";
import { UserScreen, UsersScreen } from "./views/Users";
import { EnrolScreen, RecoveryCodesScreen, VerifyScreen } from "./views/SecondStep";
import { ConfirmDeleteScreen, TitleEditScreen, TitlesScreen } from "./views/Titles";
import { entryFromForm, formOfEntry, keepUnshownFields } from "../../shared/admin/title-form";
import { episodesOfForm, type FormEpisodes } from "../../shared/admin/episode-rows";
import { subtitleLanguagesOf } from "../../shared/stream/subtitle-tracks";
import { episodeCount, episodeName } from "../../shared/episodes";
import { putSubtitles, removeSubtitles } from "./subtitles";
import { saveMarkers } from "./markers";
import { markerFormValues } from "../../shared/admin/marker-form";
import { shanghaiTime } from "../../shared/catalogue/publication";
import { BULK_NAMES, bulkTitles, deleteTitles, listTitles, saveTitle, titleForEdit, titleListQuery, type BulkAction } from "./titles";
import { danmakuListQuery, MUTE_NAMES, parseCommentRef, type CommentRef, type MuteChoice } from "../../shared/danmaku/moderation";
import { deleteDanmaku, listDanmaku, listMutes, muteOf, muteUser, saveWords, unmuteUser, untilText, wordsView } from "./danmaku";
import { DanmakuScreen, MutesScreen, WordsScreen } from "./views/Danmaku";
import { COMMENT_ADMIN_MESSAGES, commentIdsOf, listAdminComments, removeComments } from "./comments";
import { CommentsScreen } from "./views/Comments";

type PageStatus = 200 | 400 | 403 | 404 | 409 | 413 | 429 | 500 | 501 | 503;

/** The screens that exist, and who sees them (later slices add theirs here). */
const SCREENS: readonly (NavItem & { needs: AdminPermission })[] = [
  { href: "/admin", label: "概览", needs: "moderation" },
  { href: "/admin/reports", label: "举报", needs: "moderation" },
  { href: "/admin/titles", label: "视频管理", needs: "admin" },
  { href: "/admin/danmaku", label: "弹幕管理", needs: "moderation" },
  { href: "/admin/comments", label: "评论管理", needs: "moderation" },
  { href: "/admin/users", label: "用户管理", needs: "admin" },
  { href: "/admin/settings", label: "站点设置", needs: "admin" },
  { href: "/admin/roles", label: "角色管理", needs: "admin" },
  { href: "/admin/audit", label: "操作日志", needs: "admin" },
];

const screensFor = (visitor: AdminVisitor): NavItem[] => SCREENS.filter((s) => roleAllows(visitor.role, s.needs)).map(({ href, label }) => ({ href, label }));

function page(c: AdminContext, status: PageStatus, title: string, body: ReactElement, visitor?: AdminVisitor): Response {
  const siteName = c.get("siteName");
  const path = new URL(c.req.url).pathname;
  const current = SCREENS.filter((s) => s.href !== "/admin" && path.startsWith(s.href)).map((s) => s.href)[0] ?? path;
  const nav =
    visitor && visitor.step.kind === "passed" ? { items: screensFor(visitor), current, who: { email: visitor.email, role: visitor.role } } : undefined;
  const html =
    "<!DOCTYPE html>" +
    renderToStaticMarkup(
      <Layout title={title} siteName={siteName} nav={nav}>
        {body}
      </Layout>,
    );
  return c.html(html, status);
}

const message = (c: AdminContext, status: PageStatus, title: string, text: string, visitor?: AdminVisitor) =>
  page(c, status, title, <MessageScreen title={title} message={text} />, visitor);

const visitorOf = (c: AdminContext): AdminVisitor => {
  const access = c.get("adminAccess");
  if (access.kind !== "role") throw new Error("admin page reached without a role");
  return access.visitor;
};

/** Where the verify form goes back to: a path under /admin, else /admin. */
function adminNext(value: unknown): string {
  const next = safeRedirectPath(typeof value === "string" ? value : null);
  return next === "/admin" || next.startsWith("/admin/") || next.startsWith("/admin?") ? next : "/admin";
}

async function formOf(c: AdminContext): Promise<Record<string, unknown> | null> {
  const body = await readAuthBody(c.req.raw);
  return body.ok ? body.value : null;
}

async function enrolScreen(c: AdminContext, visitor: AdminVisitor, status: PageStatus = 200, error?: string): Promise<Response> {
  const enrolment = await startEnrolment(c.env, c.req.url, visitor);
  if (!enrolment.ok) return message(c, enrolment.status, "两步验证", enrolment.message);
  return page(c, status, "启用两步验证", <EnrolScreen qrSvg={enrolment.value.qrSvg} secret={enrolment.value.secret} error={error} />);
}

export const adminPages = new Hono<AdminEnv>({ strict: false });

adminPages.use("*", adminAnswers);
// The site's name as the 站点设置 have it (the page title and the header).
adminPages.use("*", async (c, next) => {
  c.set("siteName", (await siteConfigFor(c)).siteName);
  await next();
});
adminPages.use(
  "*",
  sameSiteWrites((c) => message(c, 403, "请求被拒绝", "请求来源不明，已拒绝。请从管理后台页面重新提交。")),
);
adminPages.use(
  "*",
  adminBodyLimit((c) => message(c, 413, "请求过大", `提交的内容超过 ${MAX_BODY_BYTES / 1024} KB。`)),
);
adminPages.use("*", readAccess);

adminPages.onError((error, c) => {
  console.error("admin page: unexpected failure", error);
  return message(c, 500, "出错了", "操作失败，请重试。");
});

/** Who may see anything at all, and the second step before any screen. */
const gate: MiddlewareHandler<AdminEnv> = async (c, next) => {
  const access = c.get("adminAccess");
  const url = new URL(c.req.url);
  if (access.kind === "signed_out") return c.redirect(`/auth?next=${encodeURIComponent(url.pathname + url.search)}`, c.req.method === "GET" ? 302 : 303);
  if (access.kind === "unavailable") return message(c, 503, "暂时无法访问", "账号服务暂时不可用，请稍后重试。");
  if (access.kind === "no_role") return page(c, 403, "无权访问", <ForbiddenScreen signedInAs={null} />);
  const visitor = access.visitor;
  if (visitor.step.kind === "passed") return next();
  const path = url.pathname.replace(/\/+$/, "");
  if (c.req.method === "POST" && (path === "/admin/two-step/confirm" || path === "/admin/two-step/verify")) return next();
  if (visitor.step.kind === "enrol") return enrolScreen(c, visitor);
  return page(c, 200, "两步验证", <VerifyScreen next={adminNext(url.pathname + url.search)} />);
};

adminPages.use("*", gate);

adminPages.post("/two-step/confirm", async (c) => {
  const visitor = visitorOf(c);
  if (visitor.step.kind === "passed") return c.redirect("/admin", 303);
  const form = await formOf(c);
  const result = await finishEnrolment(c.env, visitor, form?.code);
  if (!result.ok) return enrolScreen(c, visitor, result.status === 409 ? 409 : result.status === 429 ? 429 : 400, result.message);
  return page(c, 200, "两步验证已启用", <RecoveryCodesScreen codes={result.value.recoveryCodes} />);
});

adminPages.post("/two-step/verify", async (c) => {
  const visitor = visitorOf(c);
  const form = await formOf(c);
  const next = adminNext(form?.next);
  if (visitor.step.kind === "passed") return c.redirect(next, 303);
  if (visitor.step.kind === "enrol") return enrolScreen(c, visitor);
  const result = await passSecondStep(c.env, visitor, form?.code);
  if (!result.ok) return page(c, result.status === 429 ? 429 : 400, "两步验证", <VerifyScreen next={next} error={result.message} />);
  return c.redirect(next, 303);
});

/** The visitor's role allows `permission`, else the 403 screen. */
function allowed(c: AdminContext, permission: AdminPermission): Response | null {
  return roleAllows(visitorOf(c).role, permission) ? null : page(c, 403, "无权访问", <ForbiddenScreen signedInAs={visitorOf(c).email} />, visitorOf(c));
}

adminPages.get("/", async (c) => {
  const visitor = visitorOf(c);
  return page(c, 200, "概览", <OverviewScreen overview={await overviewOf(c.env)} role={visitor.role} screens={screensFor(visitor)} />, visitor);
});

const ROLE_DONE: Record<string, string> = { grant: "已授予角色", revoke: "已撤销角色" };

async function rolesPage(c: AdminContext, status: PageStatus, notice: { ok?: string; error?: string; email?: string } = {}): Promise<Response> {
  const visitor = visitorOf(c);
  const holders = await roleHolders(c.env);
  if (!holders.ok) return message(c, holders.status, "角色管理", holders.message, visitor);
  return page(c, status, "角色管理", <RolesScreen holders={holders.value} selfEmail={visitor.email} {...notice} />, visitor);
}

adminPages.get("/roles", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const done = ROLE_DONE[c.req.query("done") ?? ""];
  const who = c.req.query("email") ?? "";
  // From 用户管理: the grant form starts with that account's e-mail.
  return rolesPage(c, 200, done ? { ok: who ? `${done}：${who}` : done } : { email: who.slice(0, 320) });
});

adminPages.post("/roles/grant", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const form = (await formOf(c)) ?? {};
  const email = textField(form, "email");
  const result = await grantRole(c.env, visitorOf(c), email, textField(form, "role"));
  if (!result.ok) return rolesPage(c, result.status, { error: result.message, email });
  return c.redirect(`/admin/roles?done=grant&email=${encodeURIComponent(`${result.value.email}（${ROLE_NAMES[result.value.after ?? "admin"]}）`)}`, 303);
});

adminPages.post("/roles/revoke", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const form = (await formOf(c)) ?? {};
  const result = await revokeRole(c.env, visitorOf(c), textField(form, "email"));
  if (!result.ok) return rolesPage(c, result.status, { error: result.message });
  return c.redirect(`/admin/roles?done=revoke&email=${encodeURIComponent(result.value.email)}`, 303);
});

const AUDIT_PAGE = 100;

adminPages.get("/audit", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const q = (name: string) => (c.req.query(name) ?? "").trim().slice(0, 320);
  const filter = auditFilterOf((name) => c.req.query(name), AUDIT_PAGE + 1);
  const found = await readAudit(c.env.DB, filter);
  const query = { actor: q("actor"), action: q("action"), target: q("target"), from: q("from"), to: q("to") };
  return page(c, 200, "操作日志", <AuditScreen entries={found.slice(0, AUDIT_PAGE)} query={query} more={found.length > AUDIT_PAGE} />, visitorOf(c));
});

// ---- 举报 (worker/admin/reports.ts, views/Reports.tsx): both roles ------------------------------

/** Where a queue form goes back to: a path of the queue, else the queue. */
const reportsBack = (value: unknown): string => (typeof value === "string" && /^\/admin\/reports(?:\?|$)/.test(value) ? value : "/admin/reports");

function backTo(c: AdminContext, back: string, kind: "ok" | "error", text: string): Response {
  const url = new URL(back, "https://admin.invalid");
  url.searchParams.delete("ok");
  url.searchParams.delete("error");
  url.searchParams.set(kind, text);
  return c.redirect(url.pathname + url.search, 303);
}

adminPages.get("/reports", async (c) => {
  const queue = await reportQueue(
    c.env.DB,
    reportQueryOf((n) => c.req.query(n)),
  );
  return page(c, 200, "举报", <ReportsScreen queue={queue} ok={c.req.query("ok")?.slice(0, 300)} error={c.req.query("error")?.slice(0, 300)} />, visitorOf(c));
});

adminPages.post("/reports/group", async (c) => {
  const form = (await formOf(c)) ?? {};
  const back = reportsBack(form.back);
  const result = await settleGroup(c.env.DB, visitorOf(c), form.title, form.kind, form.action);
  if (!result.ok) return backTo(c, back, "error", result.message);
  return backTo(c, back, "ok", `已${SETTLE_NAMES[settleActionOf(form.action) ?? "resolve"]} ${result.value.count} 条举报`);
});

adminPages.post("/reports/:id", async (c) => {
  const form = (await formOf(c)) ?? {};
  const back = reportsBack(form.back);
  const id = c.req.param("id");
  const result = await settleReport(c.env.DB, visitorOf(c), id, form.action);
  if (!result.ok) return backTo(c, back, "error", result.message);
  return backTo(c, back, "ok", `已${SETTLE_NAMES[settleActionOf(form.action) ?? "resolve"]}举报 #${id}`);
});

// ---- 用户管理 ---------------------------------------------------------------------------------

const USER_DONE: Record<string, string> = {
  disable: "已停用账号，它已退出所有设备",
  enable: "已启用账号",
  "sign-out": "已让该账号退出所有设备",
};

adminPages.get("/users", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const found = await listAccounts(c.env, c.req.query("q"), c.req.query("page"));
  if (!found.ok) return message(c, found.status, "用户管理", found.message, visitorOf(c));
  const deleted = c.req.query("deleted");
  return page(c, 200, "用户管理", <UsersScreen found={found.value} notice={deleted ? `已删除账号：${deleted.slice(0, 320)}` : undefined} />, visitorOf(c));
});

async function userPage(c: AdminContext, id: string, status: PageStatus, notice: { ok?: string; error?: string } = {}): Promise<Response> {
  const visitor = visitorOf(c);
  const detail = await accountDetail(c.env, id);
  if (!detail.ok) return message(c, detail.status, "用户管理", detail.message, visitor);
  const { account, sessions, canSignOut } = detail.value;
  const mute = await muteOf(c.env, account.id);
  return page(
    c,
    status,
    account.email,
    <UserScreen
      account={account}
      sessions={sessions}
      canSignOut={canSignOut}
      isSelf={account.id === visitor.userId}
      mutedUntil={mute ? untilText(mute.until) : null}
      {...notice}
    />,
    visitor,
  );
}

adminPages.get("/users/:id", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const done = USER_DONE[c.req.query("done") ?? ""];
  return userPage(c, c.req.param("id"), 200, done ? { ok: done } : {});
});

for (const action of ["disable", "enable", "sign-out"] as const) {
  adminPages.post(`/users/:id/${action}`, async (c) => {
    const denied = allowed(c, "admin");
    if (denied) return denied;
    const id = c.req.param("id");
    const result =
      action === "sign-out" ? await signOutAccount(c.env, visitorOf(c), id) : await setAccountDisabled(c.env, visitorOf(c), id, action === "disable");
    if (!result.ok)
      return result.status === 404 ? message(c, 404, "用户管理", result.message, visitorOf(c)) : userPage(c, id, result.status, { error: result.message });
    return c.redirect(`/admin/users/${encodeURIComponent(id)}?done=${action}`, 303);
  });
}

adminPages.post("/users/:id/delete", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const id = c.req.param("id");
  const form = (await formOf(c)) ?? {};
  const result = await deleteAccount(c.env, visitorOf(c), id, textField(form, "confirm"));
  if (!result.ok)
    return result.status === 404 ? message(c, 404, "用户管理", result.message, visitorOf(c)) : userPage(c, id, result.status, { error: result.message });
  return c.redirect(`/admin/users?deleted=${encodeURIComponent(result.value.email)}`, 303);
});

// ---- 站点设置 ---------------------------------------------------------------------------------

adminPages.get("/settings", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  return page(
    c,
    200,
    "站点设置",
    <SettingsScreen view={await settingsView(c.env)} ok={c.req.query("done") ? "已保存站点设置，一分钟内所有访客可见" : undefined} />,
    visitorOf(c),
  );
});

adminPages.post("/settings", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const form = (await formOf(c)) ?? {};
  const result = await saveSettings(c.env, visitorOf(c), form);
  if (result.ok) return c.redirect("/admin/settings?done=1", 303);
  const entered = Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === "string"));
  // A conflict shows what is saved now; a bad text keeps what was typed.
  const view = await settingsView(c.env);
  return page(
    c,
    result.status === 409 ? 409 : 400,
    "站点设置",
    <SettingsScreen view={view} error={result.message} entered={result.status === 409 ? undefined : entered} />,
    visitorOf(c),
  );
});

// ---- 视频管理 (worker/admin/titles.ts, views/Titles.tsx) ----------------------------------------

/** A form body with its repeated fields (the list's checkboxes), or null when it is not a form. */
async function formParams(c: AdminContext): Promise<URLSearchParams | null> {
  const type = (c.req.header("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return null;
  try {
    return new URLSearchParams(new TextDecoder("utf-8", { fatal: true }).decode(await c.req.arrayBuffer()));
  } catch {
    return null;
  }
}

/** Where a list form goes back to: a path of the list, else the list. */
const listBack = (value: string | null): string => (value && /^\/admin\/titles(?:\?|$)/.test(value) ? value : "/admin/titles");

const TITLE_DONE: Record<string, string> = {
  created: "已创建",
  saved: "已保存",
  episodes: "剧集已保存",
  subtitles: "字幕已上传",
  "subtitles-removed": "字幕已移除",
  markers: "片头 / 片尾已保存",
};

adminPages.get("/titles", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const list = await listTitles(
    c.env.DB,
    titleListQuery((n) => c.req.query(n)),
    Date.now(),
  );
  const ok = c.req.query("ok");
  const error = c.req.query("error");
  return page(c, 200, "视频管理", <TitlesScreen list={list} ok={ok?.slice(0, 300)} error={error?.slice(0, 300)} />, visitorOf(c));
});

adminPages.post("/titles/bulk", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const form = await formParams(c);
  if (!form) return message(c, 400, "视频管理", "请求内容无法解析。", visitorOf(c));
  const back = listBack(form.get("back"));
  const ids = form.getAll("id");
  const action = form.get("action") ?? "";
  const to = (kind: "ok" | "error", text: string) => c.redirect(`${back}${back.includes("?") ? "&" : "?"}${kind}=${encodeURIComponent(text)}`, 303);
  if (action === "delete" && form.get("confirmed") !== "yes" && ids.length > 0) {
    const { results } = await c.env.DB.prepare("SELECT id, title FROM catalogue_titles WHERE id IN (SELECT value FROM json_each(?)) ORDER BY position")
      .bind(JSON.stringify(ids))
      .all<{ id: string; title: string }>();
    return page(c, 200, "确认删除", <ConfirmDeleteScreen titles={results} back={back} />, visitorOf(c));
  }
  const result = await bulkTitles(c.env, visitorOf(c), action, ids, form.get("category") ?? "", Date.now());
  if (!result.ok) return to("error", result.message);
  const { done, failed } = result.value;
  const name = BULK_NAMES[action as BulkAction];
  if (failed.length > 0)
    return to("error", `${name}：${done.length} 个成功，${failed.length} 个失败（${failed.map((f) => `${f.id}：${f.message}`).join("；")}）`);
  return to("ok", `已${name} ${done.length} 个视频`);
});

adminPages.get("/titles/new", (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  return page(c, 200, "新建视频", <TitleEditScreen id={null} values={{ state: "draft" }} version={null} />, visitorOf(c));
});

adminPages.post("/titles/new", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const form = await formParams(c);
  if (!form) return message(c, 400, "新建视频", "请求内容无法解析。", visitorOf(c));
  const episodes = formEpisodes(form);
  const values = { ...Object.fromEntries(form), ...(episodes.text !== null ? { episodes: episodes.text } : {}) };
  if (!episodes.ok) return page(c, 400, "新建视频", <TitleEditScreen id={null} values={values} version={null} error={episodes.message} />, visitorOf(c));
  const result = await saveTitle(
    c.env,
    visitorOf(c),
    entryFromForm((n) => (n === "episodes" && episodes.text !== null ? episodes.text : (form.get(n) ?? ""))),
    null,
    Date.now(),
  );
  if (!result.ok) {
    return page(
      c,
      result.status === 409 ? 409 : 400,
      "新建视频",
      <TitleEditScreen id={null} values={values} version={null} error={result.message} problems={result.problems} />,
      visitorOf(c),
    );
  }
  return c.redirect(`/admin/titles/${result.value.id}?done=created`, 303);
});

/** The 剧集 rows of a title form after its row button (shared/admin/episode-rows.ts). */
const formEpisodes = (form: URLSearchParams): FormEpisodes =>
  episodesOfForm(
    (n) => form.get(n) ?? "",
    (n) => form.getAll(n),
  );

async function editPage(
  c: AdminContext,
  id: string,
  status: PageStatus,
  notice: { error?: string; problems?: string[]; values?: Record<string, string>; markerValues?: Record<string, string> } = {},
) {
  const title = await titleForEdit(c.env.DB, id, Date.now());
  if (!title) return message(c, 404, "视频管理", `没有编号为 ${id} 的视频（可能已被删除）。`, visitorOf(c));
  const what = c.req.query("what");
  const doneName = TITLE_DONE[c.req.query("done") ?? ""];
  // 剧集 row changes name what was done (已删除第3集), a summary of shared/admin/episode-rows.ts.
  const done = doneName && what && /^[\p{Script=Han}\d]{1,20}$/u.test(what) ? `${doneName}：${what}` : doneName;
  const coverKey = title.entry.coverImage.replace(/^\/+/, "");
  // The preview only when there is a cover (a new title has none until one is uploaded).
  const hasCover = (await c.env.MEDIA.head(coverKey)) !== null;
  const meta =
    `版本 ${title.version} · 最近修改 ${shanghaiTime(title.updatedAt).slice(0, 16).replace("T", " ")}` +
    (title.editedBy ? ` · ${title.editedBy} 在网页上修改，尚未导出到目录文件` : "");
  return page(
    c,
    status,
    `编辑 ${title.entry.title}`,
    <TitleEditScreen
      id={id}
      values={notice.values ?? formOfEntry(title.entry, title.state, title.publishAt)}
      version={title.version}
      ok={notice.error ? undefined : done}
      error={notice.error}
      problems={notice.problems}
      meta={meta}
      cover={hasCover ? `/${coverKey}?v=${title.updatedAt}` : undefined}
      subtitles={Array.from({ length: episodeCount(title.entry) }, (_, i) => ({
        episode: i + 1,
        name: title.entry.episodes ? episodeName(title.entry, i + 1) : "正片",
        languages: subtitleLanguagesOf(title.entry, i + 1),
      }))}
      markers={{ id, version: title.version, episodes: title.entry.episodes?.length ?? 0, values: notice.markerValues ?? markerFormValues(title.entry) }}
    />,
    visitorOf(c),
  );
}

adminPages.get("/titles/:id", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  return editPage(c, c.req.param("id"), 200);
});

adminPages.post("/titles/:id", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const id = c.req.param("id");
  const form = await formParams(c);
  if (!form) return message(c, 400, "视频管理", "请求内容无法解析。", visitorOf(c));
  const episodes = formEpisodes(form);
  const values = { ...Object.fromEntries(form), ...(episodes.text !== null ? { episodes: episodes.text } : {}) };
  if (!episodes.ok) return editPage(c, id, 400, { error: episodes.message, values });
  const formed = entryFromForm((n) => (n === "id" ? id : n === "episodes" && episodes.text !== null ? episodes.text : (form.get(n) ?? "")));
  // What the form does not show (字幕, 片头/片尾, an episode's own 线路) stays as saved.
  const saved = await titleForEdit(c.env.DB, id, Date.now());
  const result = await saveTitle(
    c.env,
    visitorOf(c),
    saved ? keepUnshownFields(formed, saved.entry) : formed,
    { id, version: form.get("version") },
    Date.now(),
    undefined,
    // A row button or the 添加 row: the 操作日志 says 修改剧集.
    episodes.summary ? "title.episodes" : undefined,
  );
  if (result.ok) {
    if (!episodes.summary) return c.redirect(`/admin/titles/${id}?done=saved`, 303);
    return c.redirect(`/admin/titles/${id}?done=episodes&what=${encodeURIComponent(episodes.summary)}#episodes`, 303);
  }
  // A stale version: the form shows what is saved now (the refused text is gone: the message says so).
  if (result.code === "stale_version") return editPage(c, id, 409, { error: result.message });
  return editPage(c, id, result.status === 404 ? 404 : 400, { error: result.message, problems: result.problems, values });
});

// 字幕: a multipart form with the file (no JavaScript needed), converted and stored by worker/admin/subtitles.ts.
adminPages.post("/titles/:id/subtitles", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const id = c.req.param("id");
  let body: Record<string, string | File | (string | File)[]>;
  try {
    body = await c.req.parseBody();
  } catch {
    return editPage(c, id, 400, { error: "请求内容无法解析：请用页面上的表单上传字幕文件" });
  }
  const file = body.file;
  const text = file instanceof File ? await file.text() : "";
  const result = await putSubtitles(c.env, visitorOf(c), id, { episode: body.episode, language: body.language, text }, Date.now());
  if (result.ok) return c.redirect(`/admin/titles/${id}?done=subtitles`, 303);
  return editPage(c, id, result.status === 404 ? 404 : 400, { error: result.message });
});

adminPages.post("/titles/:id/subtitles/remove", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const id = c.req.param("id");
  const form = await formParams(c);
  if (!form) return message(c, 400, "视频管理", "请求内容无法解析。", visitorOf(c));
  const result = await removeSubtitles(c.env, visitorOf(c), id, { episode: form.get("episode"), language: form.get("language") }, Date.now());
  if (result.ok) return c.redirect(`/admin/titles/${id}?done=subtitles-removed`, 303);
  return editPage(c, id, result.status === 404 ? 404 : 400, { error: result.message });
});

// 片头 / 片尾: the title's and each episode's, a form of their own (worker/admin/markers.ts).
adminPages.post("/titles/:id/markers", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const id = c.req.param("id");
  const form = await formParams(c);
  if (!form) return message(c, 400, "视频管理", "请求内容无法解析。", visitorOf(c));
  const result = await saveMarkers(c.env, visitorOf(c), id, (n) => form.get(n) ?? "", form.get("version"), Date.now());
  if (result.ok) return c.redirect(`/admin/titles/${id}?done=markers`, 303);
  if (result.code === "stale_version") return editPage(c, id, 409, { error: result.message });
  return editPage(c, id, result.status === 404 ? 404 : 400, { error: result.message, problems: result.problems, markerValues: Object.fromEntries(form) });
});

adminPages.post("/titles/:id/delete", async (c) => {
  const denied = allowed(c, "admin");
  if (denied) return denied;
  const id = c.req.param("id");
  const form = await formParams(c);
  if (form?.get("confirmed") !== "yes") {
    const title = await titleForEdit(c.env.DB, id, Date.now());
    if (!title) return message(c, 404, "视频管理", `没有编号为 ${id} 的视频。`, visitorOf(c));
    return page(c, 200, "确认删除", <ConfirmDeleteScreen titles={[{ id, title: title.entry.title }]} back={`/admin/titles/${id}`} />, visitorOf(c));
  }
  const result = await deleteTitles(c.env, visitorOf(c), [id], Date.now());
  if (!result.ok || result.value.done.length === 0) return message(c, 404, "视频管理", `没有编号为 ${id} 的视频。`, visitorOf(c));
  return c.redirect(`/admin/titles?ok=${encodeURIComponent(`已删除 ${id}`)}`, 303);
});

// ---- 弹幕管理 (worker/admin/danmaku.ts, views/Danmaku.tsx): both roles ---------------------------

/** A notice carried by a redirect (`ok=` / `error=`), at most 300 characters. */
const noticeOf = (c: AdminContext) => ({ ok: c.req.query("ok")?.slice(0, 300), error: c.req.query("error")?.slice(0, 300) });

const redirectWith = (c: AdminContext, back: string, kind: "ok" | "error", text: string) =>
  c.redirect(`${back}${back.includes("?") ? "&" : "?"}${kind}=${encodeURIComponent(text)}`, 303);

adminPages.get("/danmaku", async (c) => {
  const list = await listDanmaku(
    c.env,
    danmakuListQuery((n) => c.req.query(n)),
  );
  return page(c, 200, "弹幕管理", <DanmakuScreen list={list} {...noticeOf(c)} />, visitorOf(c));
});

adminPages.post("/danmaku/delete", async (c) => {
  const form = await formParams(c);
  if (!form) return message(c, 400, "弹幕管理", "请求内容无法解析。", visitorOf(c));
  const backText = form.get("back");
  const back = backText && /^\/admin\/danmaku(?:\?|$)/.test(backText) ? backText.replace(/[?&](?:ok|error)=[^&]*/g, "") : "/admin/danmaku";
  const refs = form.getAll("c").map(parseCommentRef);
  if (refs.some((r) => r === null)) return redirectWith(c, back, "error", "弹幕编号格式有误");
  const result = await deleteDanmaku(c.env, visitorOf(c), refs as CommentRef[], c);
  if (!result.ok) return redirectWith(c, back, "error", result.message);
  const { deleted, missing } = result.value;
  return redirectWith(c, back, "ok", `已删除 ${deleted} 条弹幕${missing > 0 ? `（${missing} 条已不存在）` : ""}，观众的屏幕上已同步移除`);
});

adminPages.get("/danmaku/words", async (c) => page(c, 200, "弹幕屏蔽词", <WordsScreen view={await wordsView(c.env)} {...noticeOf(c)} />, visitorOf(c)));

adminPages.post("/danmaku/words", async (c) => {
  const form = (await formOf(c)) ?? {};
  const result = await saveWords(c.env, visitorOf(c), form);
  if (result.ok) return c.redirect(`/admin/danmaku/words?ok=${encodeURIComponent("已保存屏蔽词，下一条弹幕起生效")}`, 303);
  const view = await wordsView(c.env);
  const entered = result.status === 409 || typeof form.words !== "string" ? undefined : form.words;
  return page(c, result.status === 409 ? 409 : 400, "弹幕屏蔽词", <WordsScreen view={view} error={result.message} entered={entered} />, visitorOf(c));
});

adminPages.get("/danmaku/mutes", async (c) => {
  const user = (c.req.query("user") ?? "").trim().slice(0, 320);
  return page(c, 200, "禁言用户", <MutesScreen mutes={await listMutes(c.env)} user={user} {...noticeOf(c)} />, visitorOf(c));
});

adminPages.post("/danmaku/mutes", async (c) => {
  const form = (await formOf(c)) ?? {};
  const user = textField(form, "user");
  const result = await muteUser(c.env, visitorOf(c), user, form.duration);
  if (!result.ok) return page(c, result.status, "禁言用户", <MutesScreen mutes={await listMutes(c.env)} user={user} error={result.message} />, visitorOf(c));
  const { user: muted, until } = result.value;
  const length = MUTE_NAMES[form.duration as MuteChoice];
  const text = `已禁言 ${muted.email ?? muted.id}（${length}${until === null ? "" : `，至 ${untilText(until)}`}）`;
  return c.redirect(`/admin/danmaku/mutes?ok=${encodeURIComponent(text)}`, 303);
});

adminPages.post("/danmaku/unmute", async (c) => {
  const form = (await formOf(c)) ?? {};
  const result = await unmuteUser(c.env, visitorOf(c), textField(form, "user"));
  if (!result.ok) return c.redirect(`/admin/danmaku/mutes?error=${encodeURIComponent(result.message)}`, 303);
  return c.redirect(`/admin/danmaku/mutes?ok=${encodeURIComponent(`已解除 ${result.value.user.email ?? result.value.user.id} 的禁言`)}`, 303);
});

// ---- 评论管理 (worker/admin/comments.ts, views/Comments.tsx): both roles --------------------------

adminPages.get("/comments", async (c) => {
  const list = await listAdminComments(
    c.env,
    danmakuListQuery((n) => c.req.query(n)),
  );
  return page(c, 200, "评论管理", <CommentsScreen list={list} {...noticeOf(c)} />, visitorOf(c));
});

adminPages.post("/comments/delete", async (c) => {
  const form = await formParams(c);
  if (!form) return message(c, 400, "评论管理", "请求内容无法解析。", visitorOf(c));
  const backText = form.get("back");
  // Back to the list, or to the 举报 queue when a reported comment was deleted from there.
  const back = backText && /^\/admin\/(?:comments|reports)(?:\?|$)/.test(backText) ? backText.replace(/[?&](?:ok|error)=[^&]*/g, "") : "/admin/comments";
  const ids = commentIdsOf(form.getAll("c"));
  if (!ids) return redirectWith(c, back, "error", COMMENT_ADMIN_MESSAGES.badId);
  const result = await removeComments(c.env, visitorOf(c), ids);
  if (!result.ok) return redirectWith(c, back, "error", result.message);
  const { deleted, missing } = result.value;
  return redirectWith(c, back, "ok", `已删除 ${deleted} 条评论${missing > 0 ? `（${missing} 条已不存在）` : ""}`);
});

adminPages.all("*", (c) => message(c, 404, "页面不存在", "管理后台没有这个页面。", visitorOf(c)));
