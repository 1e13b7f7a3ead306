import { useId, useState, type FormEvent } from "react";
import { Link, useLoaderData, useNavigate } from "react-router";
import { useAccount } from "../account-context";
import type { ResetPageData } from "../auth-page-data";
import { authErrorMessage, otherAccountNotice, signedInWarning, validateSignUp } from "../auth-messages";
import { PageMeta } from "../components/PageMeta";
import { useRootData } from "../root-data";

/**
 * /auth/reset?token_hash=…: the new password from the reset e-mail's link; success signs in and
 * goes home — unless the browser is signed in as another account: it stays signed in as that one
 * and is told so (?notice=other-account without JavaScript).
 */
export function ResetPasswordPage() {
  const data = useLoaderData<ResetPageData>();
  const account = useAccount();
  const { user } = useRootData();
  const [otherAccount, setOtherAccount] = useState(data.notice === "other-account");
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(data.errorCode ? authErrorMessage(data.errorCode) : null);
  const [submitting, setSubmitting] = useState(false);
  const errorId = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const invalid = validateSignUp(password, confirm);
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      const result = await account.resetPassword(data.tokenHash, password, confirm);
      if (result.error) setError(result.error.message || authErrorMessage(null));
      else if (result.otherAccount) setOtherAccount(true);
      else void navigate("/", { replace: true });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <>
      <PageMeta title="设置新密码" description="通过邮件中的链接设置新的账号密码。" path="/auth/reset" noindex />
      <div className="auth-card">
        <h1 className="auth-title">设置新密码</h1>
        <p className="auth-subtitle">设置后将自动登录，其他设备需要重新登录</p>
        {error ? (
          <div className="auth-error" role="alert" id={errorId}>
            {error}
          </div>
        ) : null}
        {otherAccount ? (
          <p className="auth-notice" role="status">
            {otherAccountNotice(user?.email ?? null, "设置新密码")}
          </p>
        ) : data.tokenHash ? (
          <form
            className="auth-form"
            method="post"
            action="/api/auth/reset"
            onSubmit={(event) => void onSubmit(event)}
            aria-describedby={error ? errorId : undefined}
          >
            {user ? (
              <p className="auth-notice" role="status">
                {signedInWarning(user.email)}
              </p>
            ) : null}
            <input type="hidden" name="token_hash" value={data.tokenHash} />
            <label className="field">
              <span className="field-label">新密码</span>
              <input
                type="password"
                name="password"
                required
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                placeholder="至少6位"
              />
            </label>
            <label className="field">
              <span className="field-label">确认新密码</span>
              <input
                type="password"
                name="confirmPassword"
                required
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
                placeholder="请再次输入新密码"
              />
            </label>
            <button type="submit" className="button button-primary button-block" disabled={submitting}>
              {submitting ? "处理中..." : "设置新密码"}
            </button>
          </form>
        ) : (
          <p className="auth-error" role="alert">
            {authErrorMessage("otp_expired")}
          </p>
        )}
        <p className="auth-switch">
          <Link to="/auth?mode=forgot" className="link-button">
            重新发送重设邮件
          </Link>
        </p>
      </div>
    </>
  );
}
