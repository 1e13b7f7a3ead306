/**
 * The admin writes of this slice, one function each, for the JSON API and the pages alike: the
 * second step (enrol, confirm, verify) and roles (grant, revoke). Each returns the status and the
 * Chinese message a refusal gets, so both front doors answer the same.
 */
import { BAD_ROLE_MESSAGE, parseRole, ROLE_NAMES, type AdminRole } from "../../shared/admin/roles";
import { SECOND_STEP_MESSAGES } from "../../shared/admin/second-step";
import { normaliseEmail, UNKNOWN_EMAIL_MESSAGE, type RoleAccount } from "../../shared/admin/account-roles";
import { siteConfigOf } from "../config";
import { accountRolesOf } from "./account-roles";
import { auditStatement, prepared } from "./audit";
import type { AdminVisitor } from "./access";
import { confirmEnrolment, pendingSecret, verifySecondStep, type CodeRefusal } from "./two-step";
import { groupedSecret, qrSvg, totpUri } from "./totp";

export type Refusal = { ok: false; status: 400 | 403 | 404 | 409 | 429 | 501 | 503; code: string; message: string };
export type Result<T> = { ok: true; value: T } | Refusal;

const refusal = (status: Refusal["status"], code: string, message: string): Refusal => ({ ok: false, status, code, message });

function codeRefusal(reason: CodeRefusal): Refusal {
  switch (reason) {
    case "format":
      return refusal(400, "bad_code", SECOND_STEP_MESSAGES.badFormat);
    case "wrong":
      return refusal(400, "wrong_code", SECOND_STEP_MESSAGES.wrongCode);
    case "locked":
      return refusal(429, "too_many_codes", SECOND_STEP_MESSAGES.tooMany);
    case "enrolled":
      return refusal(409, "already_enrolled", SECOND_STEP_MESSAGES.alreadyEnrolled);
    case "not_enrolled":
      return refusal(409, "not_enrolled", SECOND_STEP_MESSAGES.notEnrolled);
  }
}

export interface Enrolment {
  /** base32, grouped by four for reading. */
  secret: string;
  uri: string;
  qrSvg: string;
}

/** The pending secret of a role holder who has not enrolled yet, as the enrol screen shows it. */
export async function startEnrolment(env: Env, requestUrl: string, visitor: AdminVisitor): Promise<Result<Enrolment>> {
  const secret = await pendingSecret(env.DB, visitor.userId, Date.now());
  if (!secret) return codeRefusal("enrolled");
  const uri = totpUri(secret, visitor.email, `${siteConfigOf(env, requestUrl).siteName}管理后台`);
  return { ok: true, value: { secret: groupedSecret(secret), uri, qrSvg: qrSvg(uri) } };
}

export async function finishEnrolment(env: Env, visitor: AdminVisitor, code: unknown): Promise<Result<{ recoveryCodes: string[] }>> {
  const audit = { actorId: visitor.userId, actorEmail: visitor.email, action: "two_step.enrol", target: visitor.email };
  const outcome = await confirmEnrolment(env.DB, visitor.userId, visitor.sessionId, code, Date.now(), audit);
  return outcome.ok ? outcome : codeRefusal(outcome.reason);
}

export async function passSecondStep(env: Env, visitor: AdminVisitor, code: unknown): Promise<Result<{ recoveryLeft: number | null }>> {
  const nowMs = Date.now();
  const outcome = await verifySecondStep(env.DB, visitor.userId, visitor.sessionId, code, nowMs);
  if (!outcome.ok) return codeRefusal(outcome.reason);
  if (outcome.value.recoveryLeft !== null) {
    const entry = {
      actorId: visitor.userId,
      actorEmail: visitor.email,
      action: "two_step.recovery_code",
      target: visitor.email,
      after: { left: outcome.value.recoveryLeft },
    };
    await prepared(env.DB, auditStatement(entry, nowMs)).run();
  }
  return outcome;
}

const NO_SERVICE_KEY = "未配置 SUPABASE_SERVICE_ROLE_KEY，无法在网页上修改角色（见 docs/admin.md）";
const EMAIL_NEEDED = "请输入账号邮箱";

export interface RoleChange {
  email: string;
  before: AdminRole | null;
  after: AdminRole | null;
}

async function changeRole(env: Env, actor: AdminVisitor, emailInput: string, role: AdminRole | null): Promise<Result<RoleChange>> {
  const email = normaliseEmail(emailInput);
  if (!email) return refusal(400, "email_required", EMAIL_NEEDED);
  const roles = accountRolesOf(env);
  if (!roles) return refusal(503, "service_key_missing", NO_SERVICE_KEY);
  const account: RoleAccount | null = await roles.find(email);
  if (!account) return refusal(404, "unknown_email", UNKNOWN_EMAIL_MESSAGE(email));
  if (account.id === actor.userId && role !== "admin") return refusal(409, "own_role", "不能撤销或降低自己的管理员角色");
  if (account.role !== role) {
    const audit = {
      actorId: actor.userId,
      actorEmail: actor.email,
      action: role ? "role.grant" : "role.revoke",
      target: account.email,
      before: { role: account.role },
      after: { role },
    };
    await roles.setRole(account, role, audit, Date.now());
  }
  return { ok: true, value: { email: account.email, before: account.role, after: role } };
}

export function grantRole(env: Env, actor: AdminVisitor, email: string, roleInput: string): Promise<Result<RoleChange>> {
  const role = parseRole(roleInput || "admin");
  if (!role) return Promise.resolve(refusal(400, "bad_role", BAD_ROLE_MESSAGE));
  return changeRole(env, actor, email, role);
}

export function revokeRole(env: Env, actor: AdminVisitor, email: string): Promise<Result<RoleChange>> {
  return changeRole(env, actor, email, null);
}

export async function roleHolders(env: Env): Promise<Result<RoleAccount[]>> {
  const roles = accountRolesOf(env);
  if (!roles) return refusal(503, "service_key_missing", NO_SERVICE_KEY);
  return { ok: true, value: await roles.holders() };
}

/** "管理员" / "审核员" / "无". */
export const roleName = (role: AdminRole | null): string => (role ? ROLE_NAMES[role] : "无");
