import { useState } from "react";
import { useAccount } from "../components/account-context";
import { failureMessage } from "../auth-form";
import { RESET_MAIL_SENT } from "../auth-messages";
import { AuthForm, EmailField, FormError, SubmitButton } from "../components/AuthFields";
import { useAuthForm } from "../components/useAuthForm";

/** 忘记密码？: asks for the reset e-mail. The answer is the same for every address. */
export function ForgotPasswordForm({ initialError, sent: initiallySent, onBack }: { initialError: string | null; sent: boolean; onBack: () => void }) {
  const account = useAccount();
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(initiallySent);
  const form = useAuthForm(initialError);
  const submit = form.onSubmit(async () => {
    const failure = await account.requestPasswordReset(email);
    if (!failure) setSent(true);
    return failureMessage(failure);
  });

  return (
    <>
      <h1 className="auth-title">忘记密码</h1>
      <p className="auth-subtitle">输入注册邮箱，我们会发送一封重设密码的邮件</p>
      {sent && !form.error ? (
        <p className="auth-notice" role="status">
          {RESET_MAIL_SENT}
        </p>
      ) : null}
      <FormError form={form} />
      <AuthForm form={form} action="/api/auth/recover" onSubmit={submit}>
        <EmailField value={email} onChange={setEmail} />
        <SubmitButton form={form}>发送重设邮件</SubmitButton>
      </AuthForm>
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
