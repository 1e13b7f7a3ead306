import { useId, useState, type FormEvent } from "react";
import { useAccount } from "../account-context";
import { authErrorMessage, RESET_MAIL_SENT } from "../auth-messages";

/** 忘记密码？: asks for the reset e-mail. The answer is the same for every address. */
export function ForgotPasswordForm({ initialError, sent: initiallySent, onBack }: { initialError: string | null; sent: boolean; onBack: () => void }) {
  const account = useAccount();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(initialError);
  const [sent, setSent] = useState(initiallySent);
  const [submitting, setSubmitting] = useState(false);
  const errorId = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setError(null);
    setSubmitting(true);
    try {
      const failure = await account.requestPasswordReset(email);
      if (failure) setError(failure.message || authErrorMessage(null));
      else setSent(true);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <>
      <h1 className="auth-title">忘记密码</h1>
      <p className="auth-subtitle">输入注册邮箱，我们会发送一封重设密码的邮件</p>
      {sent && !error ? (
        <p className="auth-notice" role="status">
          {RESET_MAIL_SENT}
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
        action="/api/auth/recover"
        onSubmit={(event) => void onSubmit(event)}
        aria-describedby={error ? errorId : undefined}
      >
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
        <button type="submit" className="button button-primary button-block" disabled={submitting}>
          {submitting ? "处理中..." : "发送重设邮件"}
        </button>
      </form>
      <p className="auth-switch">
        想起密码了？
        <a
          href="/auth?mode=signin"
          className="link-button"
          onClick={(e) => {
            e.preventDefault();
            onBack();
          }}
        >
          返回登录
        </a>
      </p>
    </>
  );
}
