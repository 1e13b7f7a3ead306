import { useId, useState, type FormEvent } from "react";
import { Link, useLoaderData, useNavigate } from "react-router";
import { useAccount } from "../account-context";
import { authErrorMessage, CONFIRMATION_MAIL_SENT, SIGN_UP_SUCCESS, validateSignUp } from "../auth-messages";
import { PageMeta } from "../components/PageMeta";
import type { AuthMode, AuthPageData } from "../auth-page-data";
import { safeRedirectPath } from "../safe-redirect";
import { ForgotPasswordForm } from "./ForgotPasswordForm";

export function AuthPage() {
  const data = useLoaderData<AuthPageData>();
  const account = useAccount();
  const navigate = useNavigate();
  const [mode, setMode] = useState<AuthMode>(data.mode);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [showPassword, setShowPassword] = useState(false);
  const [error, setError] = useState<string | null>(data.errorCode ? authErrorMessage(data.errorCode) : null);
  const [submitting, setSubmitting] = useState(false);
  const errorId = useId();
  const passwordId = useId();
  const signUp = mode === "signup";

  // A new URL (/auth?mode=…, ?error=…) resets the form's mode and message (adjusted while
  // rendering, as React advises for state that follows a changed input, not in an effect).
  const dataKey = `${data.mode}|${data.errorCode ?? ""}`;
  const [renderedFor, setRenderedFor] = useState(dataKey);
  if (renderedFor !== dataKey) {
    setRenderedFor(dataKey);
    setMode(data.mode);
    setError(data.errorCode ? authErrorMessage(data.errorCode) : null);
  }

  function switchMode(to: AuthMode = signUp ? "signin" : "signup") {
    setMode(to);
    setError(null);
    setEmail("");
    setPassword("");
    setConfirm("");
    setShowPassword(false);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setError(null);
    if (signUp) {
      const invalid = validateSignUp(password, confirm);
      if (invalid) {
        setError(invalid);
        return;
      }
    }
    setSubmitting(true);
    try {
      const result = signUp ? await account.signUp(email, password, confirm) : await account.signIn(email, password);
      if (result.error) {
        setError(result.error.message || authErrorMessage(null));
        return;
      }
      if (!signUp || result.user) {
        void navigate(safeRedirectPath(data.next), { replace: true });
        return;
      }
      window.alert(SIGN_UP_SUCCESS);
      setMode("signin");
      setPassword("");
      setConfirm("");
    } catch (err) {
      console.error(err);
      setError(authErrorMessage(null));
    } finally {
      setSubmitting(false);
    }
  }

  if (mode === "forgot") {
    return (
      <>
        <PageMeta title="忘记密码" description="通过邮件重设账号密码。" path="/auth" noindex />
        <div className="auth-card">
          <ForgotPasswordForm initialError={error} sent={data.notice === "reset-sent"} onBack={() => switchMode("signin")} />
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
        {notice && !error ? (
          <p className="auth-notice" role="status">
            {notice}
          </p>
        ) : null}
        {error ? (
          <div className="auth-error" role="alert" id={errorId}>
            {error}
          </div>
        ) : null}
        <form
          className="auth-form"
          method="post"
          action={signUp ? "/api/auth/sign-up" : "/api/auth/sign-in"}
          onSubmit={(event) => void onSubmit(event)}
          aria-describedby={error ? errorId : undefined}
        >
          {data.next !== "/" ? <input type="hidden" name="next" value={data.next} /> : null}
          <label className="field">
            <span className="field-label">邮箱</span>
            <input
              type="email"
              name="email"
              required
              autoComplete="email"
              inputMode="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              placeholder="name@example.com"
            />
          </label>
          {/* Not a wrapping <label>: the show/hide button may not sit inside the password's label (HTML content model). */}
          <div className="field">
            <label className="field-label" htmlFor={passwordId}>
              密码
            </label>
            <span className="password-row">
              <input
                id={passwordId}
                type={showPassword ? "text" : "password"}
                name="password"
                required
                autoComplete={signUp ? "new-password" : "current-password"}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                placeholder={signUp ? "至少6位" : "请输入密码"}
              />
              <button
                type="button"
                className="password-toggle"
                aria-pressed={showPassword}
                aria-label={showPassword ? "隐藏密码" : "显示密码"}
                onClick={() => setShowPassword((s) => !s)}
              >
                {showPassword ? "隐藏" : "显示"}
              </button>
            </span>
          </div>
          {signUp ? (
            <label className="field">
              <span className="field-label">确认密码</span>
              <input
                type={showPassword ? "text" : "password"}
                name="confirmPassword"
                required
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
                placeholder="请再次输入密码"
              />
            </label>
          ) : null}
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
          <button type="submit" className="button button-primary button-block" disabled={submitting}>
            {submitting ? "处理中..." : signUp ? "注册" : "登录"}
          </button>
        </form>
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
