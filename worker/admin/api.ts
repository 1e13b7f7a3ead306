/**
 * /api/admin/* — the 管理后台's JSON API (docs/admin.md lists the routes). Every answer passes
 * worker/admin/middleware.ts (no-store, noindex, origin check on writes); then the visitor's
 * access: signed out 401, no role 403 `forbidden`, a role without this session's second step 403
 * `second_step_required` (except the second step's own routes), a moderator on an admin-only
 * route 403 `admin_only`.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { roleAllows, ROLE_NAMES, type AdminPermission } from "../../shared/admin/roles";
import { readAuthBody, textField } from "../auth/body";
import { MAX_BODY_BYTES } from "../request-body";
import type { AdminVisitor } from "./access";
import { finishEnrolment, grantRole, passSecondStep, revokeRole, roleHolders, startEnrolment, type Result } from "./actions";
import { auditFilterOf, readAudit } from "./audit";
import { overviewOf } from "./overview";
import { reportQueryOf, reportQueue, settleGroup, settleReport } from "./reports";
import { saveSettings, settingsView } from "./settings";
import { accountDetail, deleteAccount, listAccounts, setAccountDisabled, signOutAccount } from "./user-actions";
import { completeMultipart, putMultipartPart, startMultipart } from "./media-multipart";
import { episodeFingerprint } from "./media-fingerprints";
import { abandonUpload, pendingUploads, type Result as UploadResult, publishUpload, putUploadObject, startUpload, uploadDetail } from "./media-uploads";
import {
  bulkTitles,
  deleteTitles,
  editEpisodes,
  listTitles,
  putCover,
  saveTitle,
  titleForEdit,
  titleListQuery,
  type EpisodesResult,
  type SaveResult,
} from "./titles";
import { putSubtitles, removeSubtitles } from "./subtitles";
import { saveMarkers } from "./markers";
import { adminAnswers, adminBodyLimit, readAccess, sameSiteWrites, type AdminContext, type AdminEnv } from "./middleware";
import { danmakuListQuery, parseCommentRef, type CommentRef } from "../../shared/danmaku/moderation";
import { deleteDanmaku, listDanmaku, listMutes, muteUser, saveWords, unmuteUser, wordsView } from "./danmaku";
import { COMMENT_ADMIN_MESSAGES, commentIdsOf, listAdminComments, removeComments } from "./comments";

type Status = 400 | 401 | 403 | 404 | 409 | 411 | 413 | 415 | 429 | 500 | 501 | 503;

function jsonError(c: AdminContext, status: Status, code: string, message: string, extra: Record<string, unknown> = {}): Response {
  return c.json({ error: { code, message, ...extra } }, status);
}

function answer<T>(c: AdminContext, result: Result<T> | UploadResult<T>): Response {
  return result.ok ? c.json(result.value as object) : jsonError(c, result.status, result.code, result.message);
}

const visitorOf = (c: AdminContext): AdminVisitor => {
  const access = c.get("adminAccess");
  if (access.kind !== "role") throw new Error("admin route reached without a role");
  return access.visitor;
};

/** A role holder, before or after the second step (the second step's own routes). */
const roleHolder: MiddlewareHandler<AdminEnv> = async (c, next) => {
  const access = c.get("adminAccess");
  if (access.kind === "signed_out") return jsonError(c, 401, "not_signed_in", "请先登录");
  if (access.kind === "unavailable") return jsonError(c, 503, "service_unavailable", "账号服务暂时不可用，请稍后重试");
  if (access.kind === "no_role") return jsonError(c, 403, "forbidden", "无权访问");
  await next();
};

/** A role holder past the second step, whose role allows `permission`. */
function needs(permission: AdminPermission): MiddlewareHandler<AdminEnv> {
  return async (c, next) => {
    const visitor = visitorOf(c);
    if (visitor.step.kind !== "passed") {
      return jsonError(c, 403, "second_step_required", visitor.step.kind === "enrol" ? "请先启用两步验证" : "请输入两步验证码", { step: visitor.step.kind });
    }
    if (!roleAllows(visitor.role, permission)) return jsonError(c, 403, "admin_only", "此操作仅限管理员");
    await next();
  };
}

async function bodyOf(c: AdminContext): Promise<Record<string, unknown> | Response> {
  const body = await readAuthBody(c.req.raw);
  if (!body.ok) return jsonError(c, body.status, body.code, body.status === 415 ? "请求格式不受支持" : "请求内容无法解析");
  return body.value;
}

export const adminApi = new Hono<AdminEnv>();

adminApi.use("*", adminAnswers);
adminApi.use(
  "*",
  sameSiteWrites((c) => jsonError(c, 403, "cross_site", "请求来源不明，已拒绝")),
);
adminApi.use(
  "*",
  adminBodyLimit((c) => jsonError(c, 413, "payload_too_large", `请求内容超过 ${MAX_BODY_BYTES / 1024} KB`)),
);
adminApi.use("*", readAccess, roleHolder);

adminApi.onError((error, c) => {
  console.error("admin api: unexpected failure", error);
  return jsonError(c, 500, "unexpected_failure", "操作失败，请重试");
});

// ---- the second step (reachable before it is passed) ----------------------------------------

adminApi.get("/two-step", (c) => c.json({ step: visitorOf(c).step.kind }));

adminApi.post("/two-step/enrol", async (c) => answer(c, await startEnrolment(c.env, c.req.url, visitorOf(c))));

adminApi.post("/two-step/confirm", async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return answer(c, await finishEnrolment(c.env, visitorOf(c), body.code));
});

adminApi.post("/two-step/verify", async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  const visitor = visitorOf(c);
  if (visitor.step.kind === "enrol") return jsonError(c, 409, "not_enrolled", "尚未启用两步验证，请先完成绑定");
  return answer(c, await passSecondStep(c.env, visitor, body.code));
});

// ---- past the second step -------------------------------------------------------------------

adminApi.get("/me", needs("moderation"), (c) => {
  const { email, role, step } = visitorOf(c);
  return c.json({ email, role, roleName: ROLE_NAMES[role], verifiedAt: step.kind === "passed" ? step.verifiedAt : null });
});

adminApi.get("/roles", needs("admin"), async (c) => answer(c, await roleHolders(c.env)));

adminApi.post("/roles", needs("admin"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return answer(c, await grantRole(c.env, visitorOf(c), textField(body, "email"), textField(body, "role")));
});

adminApi.post("/roles/revoke", needs("admin"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return answer(c, await revokeRole(c.env, visitorOf(c), textField(body, "email")));
});

adminApi.get("/audit", needs("admin"), async (c) => {
  const limit = Math.min(Math.max(Number(c.req.query("limit")) || 50, 1), 200);
  const entries = await readAudit(
    c.env.DB,
    auditFilterOf((name) => c.req.query(name), limit),
  );
  return c.json({ entries });
});

// ---- 概览 (both roles: aggregate figures only) ------------------------------------------------

adminApi.get("/overview", needs("moderation"), async (c) => c.json(await overviewOf(c.env)));

// ---- 举报 (both roles: worker/admin/reports.ts) ------------------------------------------------

adminApi.get("/reports", needs("moderation"), async (c) =>
  c.json(
    await reportQueue(
      c.env.DB,
      reportQueryOf((n) => c.req.query(n)),
    ),
  ),
);

adminApi.post("/reports/group", needs("moderation"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return answer(c, await settleGroup(c.env.DB, visitorOf(c), body.title, body.kind, body.action));
});

adminApi.post("/reports/:id/:action", needs("moderation"), async (c) =>
  answer(c, await settleReport(c.env.DB, visitorOf(c), c.req.param("id"), c.req.param("action"))),
);

// ---- 用户管理 ---------------------------------------------------------------------------------

adminApi.get("/users", needs("admin"), async (c) => answer(c, await listAccounts(c.env, c.req.query("q"), c.req.query("page"))));

adminApi.get("/users/:id", needs("admin"), async (c) => answer(c, await accountDetail(c.env, c.req.param("id"))));

adminApi.post("/users/:id/disable", needs("admin"), async (c) => answer(c, await setAccountDisabled(c.env, visitorOf(c), c.req.param("id"), true)));

adminApi.post("/users/:id/enable", needs("admin"), async (c) => answer(c, await setAccountDisabled(c.env, visitorOf(c), c.req.param("id"), false)));

adminApi.post("/users/:id/sign-out", needs("admin"), async (c) => answer(c, await signOutAccount(c.env, visitorOf(c), c.req.param("id"))));

adminApi.post("/users/:id/delete", needs("admin"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return answer(c, await deleteAccount(c.env, visitorOf(c), c.req.param("id"), textField(body, "confirm")));
});

// ---- 站点设置 ---------------------------------------------------------------------------------

adminApi.get("/settings", needs("admin"), async (c) => c.json(await settingsView(c.env)));

adminApi.post("/settings", needs("admin"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return answer(c, await saveSettings(c.env, visitorOf(c), body));
});

// ---- 视频管理 (worker/admin/titles.ts) ------------------------------------------------------------

function saved(c: AdminContext, result: SaveResult | EpisodesResult): Response {
  if (result.ok) return c.json(result.value);
  return jsonError(c, result.status, result.code, result.message, result.problems ? { problems: result.problems } : {});
}

adminApi.get("/titles", needs("admin"), async (c) =>
  c.json(
    await listTitles(
      c.env.DB,
      titleListQuery((n) => c.req.query(n)),
      Date.now(),
    ),
  ),
);

adminApi.post("/titles", needs("admin"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return saved(c, await saveTitle(c.env, visitorOf(c), body.entry, null, Date.now()));
});

adminApi.post("/titles/bulk", needs("admin"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  const ids = Array.isArray(body.ids) ? body.ids.filter((id): id is string => typeof id === "string") : [];
  return answer(c, await bulkTitles(c.env, visitorOf(c), body.action, ids, textField(body, "category", 40), Date.now()));
});

adminApi.get("/titles/:id", needs("admin"), async (c) => {
  const title = await titleForEdit(c.env.DB, c.req.param("id"), Date.now());
  return title ? c.json(title) : jsonError(c, 404, "not_found", "没有这个视频");
});

adminApi.post("/titles/:id", needs("admin"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return saved(c, await saveTitle(c.env, visitorOf(c), body.entry, { id: c.req.param("id"), version: body.version }, Date.now()));
});

// 剧集 one at a time: { action: "add" | "remove" | "move", version, episode?, to?, videoFile?, duration?, name?, at? }.
adminApi.post("/titles/:id/episodes", needs("admin"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return saved(c, await editEpisodes(c.env, visitorOf(c), c.req.param("id"), body, Date.now()));
});

adminApi.post("/titles/:id/delete", needs("admin"), async (c) => {
  const result = await deleteTitles(c.env, visitorOf(c), [c.req.param("id")], Date.now());
  if (result.ok && result.value.done.length === 0) return jsonError(c, 404, "not_found", "没有这个视频");
  return answer(c, result);
});

adminApi.post("/titles/:id/cover", needs("admin"), async (c) => {
  const type = (c.req.header("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "image/webp") return jsonError(c, 415, "unsupported_media_type", "封面必须是 WebP 图片（image/webp）");
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  return answer(c, await putCover(c.env, visitorOf(c), c.req.param("id"), bytes, Date.now()));
});

// ---- 弹幕管理 (worker/admin/danmaku.ts): both roles ----------------------------------------------

adminApi.get("/danmaku", needs("moderation"), async (c) =>
  c.json(
    await listDanmaku(
      c.env,
      danmakuListQuery((n) => c.req.query(n)),
    ),
  ),
);

adminApi.post("/danmaku/delete", needs("moderation"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  const listed: unknown[] = Array.isArray(body.comments) ? body.comments : [];
  const refs = listed.map(parseCommentRef);
  if (refs.some((r) => r === null)) return jsonError(c, 400, "bad_comment", "弹幕编号格式有误（应为 房间:编号）");
  return answer(c, await deleteDanmaku(c.env, visitorOf(c), refs as CommentRef[], c));
});

adminApi.get("/danmaku/words", needs("moderation"), async (c) => c.json(await wordsView(c.env)));

adminApi.post("/danmaku/words", needs("moderation"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return answer(c, await saveWords(c.env, visitorOf(c), body));
});

adminApi.get("/danmaku/mutes", needs("moderation"), async (c) => c.json({ mutes: await listMutes(c.env) }));

adminApi.post("/danmaku/mutes", needs("moderation"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return answer(c, await muteUser(c.env, visitorOf(c), textField(body, "user"), body.duration));
});

adminApi.post("/danmaku/unmute", needs("moderation"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return answer(c, await unmuteUser(c.env, visitorOf(c), textField(body, "user")));
});

// ---- 评论管理 (worker/admin/comments.ts): both roles; muting is 弹幕管理's ------------------------

adminApi.get("/comments", needs("moderation"), async (c) =>
  c.json(
    await listAdminComments(
      c.env,
      danmakuListQuery((n) => c.req.query(n)),
    ),
  ),
);

adminApi.post("/comments/delete", needs("moderation"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  const ids = commentIdsOf(Array.isArray(body.comments) ? body.comments : []);
  if (!ids) return jsonError(c, 400, "bad_comment", COMMENT_ADMIN_MESSAGES.badId);
  return answer(c, await removeComments(c.env, visitorOf(c), ids));
});

// 字幕: an SRT, ASS or WebVTT file's text for a title or an episode, in one language (worker/admin/subtitles.ts).
adminApi.post("/titles/:id/subtitles", needs("admin"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return answer(c, await putSubtitles(c.env, visitorOf(c), c.req.param("id"), body, Date.now()));
});

adminApi.post("/titles/:id/subtitles/remove", needs("admin"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return answer(c, await removeSubtitles(c.env, visitorOf(c), c.req.param("id"), body, Date.now()));
});

// 片头 / 片尾: { version, fields: { "intro-start-0": "0:05", … } } — the edit form's names (worker/admin/markers.ts).
adminApi.post("/titles/:id/markers", needs("admin"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  const fields: Record<string, unknown> = typeof body.fields === "object" && body.fields !== null ? (body.fields as Record<string, unknown>) : {};
  const result = await saveMarkers(c.env, visitorOf(c), c.req.param("id"), (n) => (Object.hasOwn(fields, n) ? fields[n] : undefined), body.version, Date.now());
  return saved(c, result.ok ? { ok: true, value: result.value } : result);
});

// ---- 上传视频 (worker/admin/media-uploads.ts) ----------------------------------------------------

adminApi.get("/uploads", needs("admin"), async (c) => c.json({ uploads: await pendingUploads(c.env.DB, c.req.query("title") ?? "") }));

adminApi.post("/uploads", needs("admin"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return answer(c, await startUpload(c.env, visitorOf(c), body, Date.now()));
});

adminApi.get("/uploads/:id", needs("admin"), async (c) => answer(c, await uploadDetail(c.env.DB, c.req.param("id"))));

/** The object's name exactly as written in the request's (undecoded) path. */
const OBJECT_PATH = /^\/api\/admin\/uploads\/[^/]+\/objects\/(.*)$/;

adminApi.put("/uploads/:id/objects/*", needs("admin"), async (c) => {
  const name = OBJECT_PATH.exec(new URL(c.req.url).pathname)?.[1] ?? "";
  const headers = { length: c.req.header("Content-Length"), sha256: c.req.header("X-Content-SHA256") };
  const result = await putUploadObject(c.env, c.req.param("id"), name, headers, c.req.raw.body, Date.now());
  return result.ok ? c.json(result.value, 201) : jsonError(c, result.status, result.code, result.message);
});

/** An object over one request's limit, in parts (worker/admin/media-multipart.ts): name and part as written in the raw path. */
const MULTIPART_PATH = /^\/api\/admin\/uploads\/[^/]+\/multipart\/([^/]*)(?:\/([^/]*))?$/;
const multipartPath = (c: { req: { url: string } }) => {
  const [, name = "", part = ""] = MULTIPART_PATH.exec(new URL(c.req.url).pathname) ?? [];
  return { name, part };
};

adminApi.post("/uploads/:id/multipart/:name", needs("admin"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return answer(c, await startMultipart(c.env, c.req.param("id"), multipartPath(c).name, body, Date.now()));
});

adminApi.post("/uploads/:id/multipart/:name/complete", needs("admin"), async (c) => {
  const result = await completeMultipart(c.env, c.req.param("id"), multipartPath(c).name, Date.now());
  return result.ok ? c.json(result.value, 201) : jsonError(c, result.status, result.code, result.message);
});

adminApi.put("/uploads/:id/multipart/:name/:part", needs("admin"), async (c) => {
  const { name, part } = multipartPath(c);
  const headers = { length: c.req.header("Content-Length"), sha256: c.req.header("X-Content-SHA256") };
  const result = await putMultipartPart(c.env, c.req.param("id"), name, part, headers, c.req.raw.body, Date.now());
  return result.ok ? c.json(result.value, 201) : jsonError(c, result.status, result.code, result.message);
});

adminApi.post("/uploads/:id/publish", needs("admin"), async (c) => {
  const body = await bodyOf(c);
  if (body instanceof Response) return body;
  return answer(c, await publishUpload(c.env, visitorOf(c), c.req.param("id"), body, Date.now()));
});

adminApi.get("/uploads/:id/fingerprints/:episode", needs("admin"), async (c) => {
  const result = await episodeFingerprint(c.env, c.req.param("id"), c.req.param("episode"));
  if (!result.ok) return jsonError(c, result.status, result.code, result.message);
  return new Response(result.value.body, { headers: { "Content-Type": "application/octet-stream", "Content-Length": String(result.value.size) } });
});

adminApi.post("/uploads/:id/abandon", needs("admin"), async (c) => answer(c, await abandonUpload(c.env, visitorOf(c), c.req.param("id"), Date.now())));

adminApi.all("*", needs("moderation"), (c) => jsonError(c, 404, "not_found", "接口不存在"));
