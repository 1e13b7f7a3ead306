/** What the auth form shows for an error code of the account service (spec §8: else 操作失败，请重试). */
export const GENERIC_AUTH_ERROR = "操作失败，请重试";
export const PASSWORD_MISMATCH = "密码确认不匹配";
export const PASSWORD_TOO_SHORT = "密码长度至少6位";
export const MIN_PASSWORD_LENGTH = 6;
export const SIGN_UP_SUCCESS = "注册成功！如已开启邮箱验证，请查收邮件中的验证链接后再登录。";

const MESSAGES: Record<string, string> = {
  invalid_credentials: "邮箱或密码错误",
  user_already_exists: "该邮箱已注册，请直接登录",
  email_exists: "该邮箱已注册，请直接登录",
  weak_password: PASSWORD_TOO_SHORT,
  password_mismatch: PASSWORD_MISMATCH,
  email_not_confirmed: "邮箱尚未验证，请先点击验证邮件中的链接",
  email_address_invalid: "请输入有效的邮箱地址",
  over_request_rate_limit: "操作过于频繁，请稍后再试",
  over_email_send_rate_limit: "邮件发送过于频繁，请稍后再试",
  signup_disabled: "暂未开放注册",
  validation_failed: "请输入有效的邮箱地址和密码",
  same_password: "新密码不能与当前密码相同",
  bad_json: "请求格式错误",
  payload_too_large: "请求内容过大",
  unsupported_media_type: "请求格式不受支持",
  csrf: "请求来源无效，请刷新页面后重试",
  service_unavailable: "账号服务暂时不可用，请稍后重试",
  not_signed_in: "请先登录",
};

/** The Chinese message for an error code; unknown codes get the generic message. */
export function authErrorMessage(code: string | null | undefined): string {
  return (code && MESSAGES[code]) || GENERIC_AUTH_ERROR;
}

/** Client-side checks of the sign-up form, in the order the spec lists them. */
export function validateSignUp(password: string, confirm: string): string | null {
  if (password !== confirm) return PASSWORD_MISMATCH;
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT;
  return null;
}
