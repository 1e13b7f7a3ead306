import { useId, type ChangeEvent, type FormEvent, type InputHTMLAttributes, type ReactNode } from "react";
import type { AuthFormControl } from "./useAuthForm";

/** The message above an account form (role=alert; the form points at it with aria-describedby). */
export function FormError({ form }: { form: AuthFormControl }) {
  return form.error ? (
    <div className="auth-error" role="alert" id={form.errorId}>
      {form.error}
    </div>
  ) : null;
}

/** An account form: a plain POST to `action` without JavaScript, `onSubmit` (from useAuthForm) with it. */
export function AuthForm({
  form,
  action,
  onSubmit,
  children,
}: {
  form: AuthFormControl;
  action: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  return (
    <form className="auth-form" method="post" action={action} onSubmit={onSubmit} aria-describedby={form.error ? form.errorId : undefined}>
      {children}
    </form>
  );
}

/** The submit button: 处理中... while the submission is under way. */
export function SubmitButton({ form, children }: { form: AuthFormControl; children: ReactNode }) {
  return (
    <button type="submit" className="button button-primary button-block" disabled={form.submitting}>
      {form.submitting ? "处理中..." : children}
    </button>
  );
}

interface ValueProps {
  value: string;
  onChange: (value: string) => void;
}

function LabelledInput({ label, ...input }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input {...input} />
    </label>
  );
}

export function EmailField({ value, onChange }: ValueProps) {
  return (
    <LabelledInput
      label="邮箱"
      type="email"
      name="email"
      required
      autoComplete="email"
      inputMode="email"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder="name@example.com"
    />
  );
}

/**
 * The password (name=password). With `toggle` it has the 显示/隐藏 button beside it — then not
 * inside a wrapping <label>: a button may not sit in the password's label (HTML content model).
 */
export function PasswordField({
  label,
  autoComplete,
  placeholder,
  value,
  onChange,
  toggle,
}: ValueProps & { label: string; autoComplete: "current-password" | "new-password"; placeholder: string; toggle?: { shown: boolean; onToggle: () => void } }) {
  const id = useId();
  const input = {
    name: "password",
    required: true,
    autoComplete,
    value,
    onChange: (e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value),
    placeholder,
  };
  if (!toggle) return <LabelledInput label={label} type="password" {...input} />;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <span className="password-row">
        <input id={id} type={toggle.shown ? "text" : "password"} {...input} />
        <button
          type="button"
          className="password-toggle"
          aria-pressed={toggle.shown}
          aria-label={toggle.shown ? "隐藏密码" : "显示密码"}
          onClick={toggle.onToggle}
        >
          {toggle.shown ? "隐藏" : "显示"}
        </button>
      </span>
    </div>
  );
}

/** The repeated new password (name=confirmPassword); `shown` follows the password's 显示 switch. */
export function ConfirmPasswordField({
  label,
  placeholder,
  shown = false,
  value,
  onChange,
}: ValueProps & { label: string; placeholder: string; shown?: boolean }) {
  return (
    <LabelledInput
      label={label}
      type={shown ? "text" : "password"}
      name="confirmPassword"
      required
      autoComplete="new-password"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder={placeholder}
    />
  );
}
