import { isPasswordTooLong, isPasswordTooShort } from "./password-rules";

import { GENERIC_AUTH_ERROR, RATE_LIMITED } from "./auth-generic";

export { GENERIC_AUTH_ERROR } from "./auth-generic";
export const PASSWORD_MISMATCH = "密码确认不匹配";
export const PASSWORD_TOO_SHORT = "密码长度至少6位";
export const PASSWORD_TOO_LONG = "密码过长，请不超过72个字节（约24个汉字）";
export const TOO_MANY_ATTEMPTS = "尝试次数过多，请稍后再试";
export const RESET_MAIL_SENT = "如果该邮箱已注册，我们已发送重设密码的邮件，请在1小时内点击邮件中的链接。";
export const CONFIRMATION_MAIL_SENT = "如果该邮箱尚未验证，我们已重新发送验证邮件，请查收。";
export const SIGN_UP_SUCCESS = "注册成功！如已开启邮箱验证，请查收邮件中的验证链接后再登录。";

/** What a signed-in visitor reads before using an e-mail link: it may belong to another account, and nothing switches. */
export function signedInWarning(email: string): string {
  return `您当前已登录为 ${email}。如果此链接属于另一个账号，确认后不会切换账号：您仍保持当前登录，只完成那个账号的确认。`;
}

/** What a signed-in visitor reads after using an e-mail link of another account. */
export function otherAccountNotice(email: string | null, done = "完成确认"): string {
  return `此链接属于另一个账号，已为该账号${done}。${email ? `您仍登录为 ${email}，没有切换账号。` : ""}如需使用那个账号，请先退出登录，再用它的邮箱和密码登录。`;
}

const MESSAGES: Record<string, string> = {
  invalid_credentials: "邮箱或密码错误",
  user_already_exists: "该邮箱已注册，请直接登录",
  email_exists: "该邮箱已注册，请直接登录",
  weak_password: PASSWORD_TOO_SHORT,
  password_mismatch: PASSWORD_MISMATCH,
  email_not_confirmed: "邮箱尚未验证，请先点击验证邮件中的链接",
  email_address_invalid: "请输入有效的邮箱地址",
  over_request_rate_limit: RATE_LIMITED,
  over_email_send_rate_limit: "邮件发送过于频繁，请稍后再试",
  signup_disabled: "暂未开放注册",
  validation_failed: "请输入有效的邮箱地址和密码",
  same_password: "新密码不能与当前密码相同",
  password_too_long: PASSWORD_TOO_LONG,
  too_many_attempts: TOO_MANY_ATTEMPTS,
  user_banned: "账号已停用",
  otp_expired: "链接已失效或已被使用，请重新发送邮件",
  session_not_found: "该设备已退出登录",
  bad_json: "请求格式错误",
  payload_too_large: "请求内容过大",
  unsupported_media_type: "请求格式不受支持",
  csrf: "请求来源无效，请刷新页面后重试",
  service_unavailable: "账号服务暂时不可用，请稍后重试",
  not_signed_in: "请先登录",
  site_url_missing: "网站地址（SITE_URL）尚未配置，暂时无法发送邮件，请联系网站管理员",
};

/** The Chinese message for an error code; unknown codes get the generic message. */
export function authErrorMessage(code: string | null | undefined): string {
  return (code && MESSAGES[code]) || GENERIC_AUTH_ERROR;
}

/** Client-side checks of the sign-up form, in the order the spec lists them. */
export function validateSignUp(password: string, confirm: string): string | null {
  if (password !== confirm) return PASSWORD_MISMATCH;
  if (isPasswordTooShort(password)) return PASSWORD_TOO_SHORT;
  if (isPasswordTooLong(password)) return PASSWORD_TOO_LONG;
  return null;
}

/** The error code of a sign-up or new-password form's problem (the same checks as validateSignUp), or null. */
export function signUpProblem(password: string, confirm: string): "password_mismatch" | "weak_password" | "password_too_long" | null {
  if (password !== confirm) return "password_mismatch";
  if (isPasswordTooShort(password)) return "weak_password";
  if (isPasswordTooLong(password)) return "password_too_long";
  return null;
}
