import { useState } from "react";
import { Link, useLoaderData, useNavigate } from "../router";
import { useAccount } from "../components/account-context";
import { failureMessage } from "../auth-form";
import type { ResetPageData } from "../auth-page-data";
import { authErrorMessage, otherAccountNotice, signedInWarning, validateSignUp } from "../auth-messages";
import { AuthForm, ConfirmPasswordField, FormError, PasswordField, SubmitButton } from "../components/AuthFields";
import { PageMeta } from "../components/PageMeta";
import { useAuthForm } from "../components/useAuthForm";
import { useRootData } from "../components/useRootData";

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
  const form = useAuthForm(data.errorCode ? authErrorMessage(data.errorCode) : null);
  const submit = form.onSubmit(
    async () => {
      const result = await account.resetPassword(data.tokenHash, password, confirm);
      if (result.error) return failureMessage(result.error);
      if (result.otherAccount) setOtherAccount(true);
      else void navigate("/", { replace: true });
      return null;
    },
    () => validateSignUp(password, confirm),
  );

  return (
    <>
      <PageMeta title="设置新密码" description="通过邮件中的链接设置新的账号密码。" path="/auth/reset" noindex />
      <div className="auth-card">
        <h1 className="auth-title">设置新密码</h1>
        <p className="auth-subtitle">设置后将自动登录，其他设备需要重新登录</p>
        <FormError form={form} />
        {otherAccount ? (
          <p className="auth-notice" role="status">
            {otherAccountNotice(user?.email ?? null, "设置新密码")}
          </p>
        ) : data.tokenHash ? (
          <AuthForm form={form} action="/api/auth/reset" onSubmit={submit}>
            {user ? (
              <p className="auth-notice" role="status">
                {signedInWarning(user.email)}
              </p>
            ) : null}
            <input type="hidden" name="token_hash" value={data.tokenHash} />
            <PasswordField label="新密码" autoComplete="new-password" placeholder="至少6位" value={password} onChange={setPassword} />
            <ConfirmPasswordField label="确认新密码" placeholder="请再次输入新密码" value={confirm} onChange={setConfirm} />
            <SubmitButton form={form}>设置新密码</SubmitButton>
          </AuthForm>
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
