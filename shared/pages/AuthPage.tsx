import { useState } from "react";
import { Link, useLoaderData, useNavigate } from "../router";
import { useAccount } from "../components/account-context";
import { authErrorMessage, CONFIRMATION_MAIL_SENT, SIGN_UP_SUCCESS, validateSignUp } from "../auth-messages";
import { failureMessage } from "../auth-form";
import { AuthForm, ConfirmPasswordField, EmailField, FormError, PasswordField, SubmitButton } from "../components/AuthFields";
import { PageMeta } from "../components/PageMeta";
import { useAuthForm } from "../components/useAuthForm";
import type { AuthMode, AuthPageData } from "../auth-page-data";
import { safeRedirectPath } from "../safe-redirect";
import { ForgotPasswordForm } from "./ForgotPasswordForm";
import { isAdminPath } from "../admin/paths";

export function AuthPage() {
  const data = useLoaderData<AuthPageData>();
  const account = useAccount();
  const navigate = useNavigate();
  const [mode, setMode] = useState<AuthMode>(data.mode);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [showPassword, setShowPassword] = useState(false);
  const form = useAuthForm(data.errorCode ? authErrorMessage(data.errorCode) : null);
  const signUp = mode === "signup";

  // A new URL (/auth?mode=…, ?error=…) resets the form's mode and message (adjusted while
  // rendering, as React advises for state that follows a changed input, not in an effect).
  const dataKey = `${data.mode}|${data.errorCode ?? ""}`;
  const [renderedFor, setRenderedFor] = useState(dataKey);
  if (renderedFor !== dataKey) {
    setRenderedFor(dataKey);
    setMode(data.mode);
    form.show(data.errorCode ? authErrorMessage(data.errorCode) : null);
  }

  function switchMode(to: AuthMode = signUp ? "signin" : "signup") {
    setMode(to);
    form.show(null);
    setEmail("");
    setPassword("");
    setConfirm("");
    setShowPassword(false);
  }

  const submit = form.onSubmit(
    async () => {
      const result = signUp ? await account.signUp(email, password, confirm) : await account.signIn(email, password);
      if (result.error) return failureMessage(result.error);
      if (!signUp || result.user) {
        const next = safeRedirectPath(data.next);
        // The 管理后台 is not a route of this app: load its document.
        if (isAdminPath(next)) window.location.replace(next);
        else void navigate(next, { replace: true });
        return null;
      }
      window.alert(SIGN_UP_SUCCESS);
      setMode("signin");
      setPassword("");
      setConfirm("");
      return null;
    },
    () => (signUp ? validateSignUp(password, confirm) : null),
  );

  if (mode === "forgot") {
    return (
      <>
        <PageMeta title="忘记密码" description="通过邮件重设账号密码。" path="/auth" noindex />
        <div className="auth-card">
          <ForgotPasswordForm initialError={form.error} sent={data.notice === "reset-sent"} onBack={() => switchMode("signin")} />
        </div>
      </>
    );
  }

  const title = signUp ? "注册账号" : "登录";
  const notice = data.notice === "signed-up" ? SIGN_UP_SUCCESS : data.notice === "confirmation-sent" ? CONFIRMATION_MAIL_SENT : null;
  return (
    <>
      <PageMeta title={title} description="登录或注册账号，收藏喜欢的影片、同步观看记录。" path="/auth" />
      <div className="auth-card">
        <h1 className="auth-title">{title}</h1>
        <p className="auth-subtitle">{signUp ? "注册后可在个人中心查看收藏与观看记录" : "欢迎回来，登录后同步您的收藏与观看记录"}</p>
        {notice && !form.error ? (
          <p className="auth-notice" role="status">
            {notice}
          </p>
        ) : null}
        <FormError form={form} />
        <AuthForm form={form} action={signUp ? "/api/auth/sign-up" : "/api/auth/sign-in"} onSubmit={submit}>
          {data.next !== "/" ? <input type="hidden" name="next" value={data.next} /> : null}
          <EmailField value={email} onChange={setEmail} />
          <PasswordField
            label="密码"
            autoComplete={signUp ? "new-password" : "current-password"}
            placeholder={signUp ? "至少6位" : "请输入密码"}
            value={password}
            onChange={setPassword}
            toggle={{ shown: showPassword, onToggle: () => setShowPassword((s) => !s) }}
          />
          {signUp ? <ConfirmPasswordField label="确认密码" placeholder="请再次输入密码" shown={showPassword} value={confirm} onChange={setConfirm} /> : null}
          {!signUp ? (
            <p className="auth-forgot">
              <a
                href="/auth?mode=forgot"
                className="link-button"
                onClick={(e) => {
                  e.preventDefault();
                  switchMode("forgot");
                }}
              >
                忘记密码？
              </a>
            </p>
          ) : null}
          {signUp ? (
            <p className="auth-terms">
              注册即表示您同意<Link to="/info/terms">《服务条款》</Link>和<Link to="/info/privacy">《隐私政策》</Link>
            </p>
          ) : null}
          <SubmitButton form={form}>{signUp ? "注册" : "登录"}</SubmitButton>
        </AuthForm>
        <p className="auth-switch">
          {signUp ? "已有账号？" : "还没有账号？"}
          <a
            href={`${signUp ? "/auth?mode=signin" : "/auth?mode=signup"}${data.next !== "/" ? `&next=${encodeURIComponent(data.next)}` : ""}`}
            className="link-button"
            onClick={(e) => {
              e.preventDefault();
              switchMode();
            }}
          >
            {signUp ? "立即登录" : "立即注册"}
          </a>
        </p>
      </div>
    </>
  );
}
