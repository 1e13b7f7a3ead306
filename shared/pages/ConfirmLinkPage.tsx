import { Link, useLoaderData } from "../router";
import type { ConfirmPageData, LinkType } from "../auth-page-data";
import { authErrorMessage, otherAccountNotice, signedInWarning } from "../auth-messages";
import { PageMeta } from "../components/PageMeta";
import { useRootData } from "../components/useRootData";

const TITLE: Record<LinkType, string> = { signup: "验证邮箱", email_change: "确认新邮箱" };
const BUTTON: Record<LinkType, string> = { signup: "验证邮箱并登录", email_change: "确认新邮箱" };
const EXPLAIN: Record<LinkType, string> = {
  signup: "点击下面的按钮完成邮箱验证，验证后将自动登录。",
  email_change: "点击下面的按钮确认新的邮箱地址，确认后将登录该账号。",
};

/**
 * /auth/confirm?token_hash=…&type=signup|email_change: the page an e-mail link opens. Opening it
 * changes nothing; its button is a plain form POST to /api/auth/verify (CSRF-checked, works
 * without JavaScript) that uses the link. A signed-in visitor is told who they are signed in as,
 * and is never switched to the link's account.
 */
export function ConfirmLinkPage() {
  const data = useLoaderData<ConfirmPageData>();
  const { user } = useRootData();
  const title = TITLE[data.type ?? "signup"];
  const error = data.errorCode ? authErrorMessage(data.errorCode) : !data.notice && (!data.tokenHash || !data.type) ? authErrorMessage("otp_expired") : null;
  return (
    <>
      <PageMeta title={title} description="确认邮件中的链接。" path="/auth/confirm" noindex />
      <div className="auth-card">
        <h1 className="auth-title">{data.notice === "other-account" ? "此链接属于另一个账号" : title}</h1>
        {data.notice === "other-account" ? (
          <>
            <p className="auth-notice" role="status">
              {otherAccountNotice(user?.email ?? null)}
            </p>
            <p className="auth-switch">
              <Link to="/" className="link-button">
                返回首页
              </Link>
            </p>
          </>
        ) : (
          <>
            {error ? (
              <div className="auth-error" role="alert">
                {error}
              </div>
            ) : null}
            {data.tokenHash && data.type ? (
              <form className="auth-form" method="post" action="/api/auth/verify">
                {user ? (
                  <p className="auth-notice" role="status">
                    {signedInWarning(user.email)}
                  </p>
                ) : (
                  <p className="auth-subtitle">{EXPLAIN[data.type]}</p>
                )}
                <input type="hidden" name="token_hash" value={data.tokenHash} />
                <input type="hidden" name="type" value={data.type} />
                <button type="submit" className="button button-primary button-block">
                  {BUTTON[data.type]}
                </button>
              </form>
            ) : null}
            <p className="auth-switch">
              <Link to={user ? "/profile" : "/auth?mode=signin"} className="link-button">
                {user ? "前往个人中心" : "前往登录"}
              </Link>
            </p>
          </>
        )}
      </div>
    </>
  );
}
