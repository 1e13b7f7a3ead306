/** The second step's screens: enrol (QR code and secret), the recovery codes shown once, and the code asked each session. */
import { Notice } from "./Layout";

export interface EnrolProps {
  qrSvg: string;
  secret: string;
  error?: string;
}

export function EnrolScreen({ qrSvg, secret, error }: EnrolProps) {
  return (
    <section className="panel narrow" aria-labelledby="enrol-title">
      <h1 id="enrol-title">启用两步验证</h1>
      <p>管理后台要求两步验证。请用验证器应用（如 Google Authenticator、Microsoft Authenticator、1Password）扫描二维码，或手动输入下面的密钥。</p>
      {/* The SVG is made on the server from the otpauth URI (worker/admin/totp.ts): no outside origin. */}
      <div className="qr" role="img" aria-label="两步验证二维码" dangerouslySetInnerHTML={{ __html: qrSvg }} />
      <p className="muted">无法扫码时，手动输入密钥（基于时间，6 位数字，30 秒）：</p>
      <p className="secret" id="totp-secret" data-testid="totp-secret">
        {secret}
      </p>
      <p>
        <button type="button" className="secondary" data-copy="totp-secret" hidden>
          复制密钥
        </button>
      </p>
      {error ? <Notice kind="error">{error}</Notice> : null}
      <form method="post" action="/admin/two-step/confirm">
        <div className="field">
          <label htmlFor="code">验证器中显示的 6 位验证码</label>
          <input className="code-input" id="code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]*" maxLength={7} required />
        </div>
        <button type="submit">确认启用</button>
      </form>
    </section>
  );
}

export function RecoveryCodesScreen({ codes }: { codes: string[] }) {
  return (
    <section className="panel narrow" aria-labelledby="codes-title">
      <h1 id="codes-title">两步验证已启用</h1>
      <Notice kind="ok">请立即保存下面 10 个恢复码。它们只显示这一次，每个只能使用一次；手机丢失时可用来代替验证码。</Notice>
      <ul className="codes" id="recovery-codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <p>
        <button type="button" className="secondary" data-copy="recovery-codes" hidden>
          复制恢复码
        </button>
      </p>
      <p>
        <a className="button" href="/admin">
          我已保存，进入管理后台
        </a>
      </p>
    </section>
  );
}

export function VerifyScreen({ next, error }: { next: string; error?: string }) {
  return (
    <section className="panel narrow" aria-labelledby="verify-title">
      <h1 id="verify-title">两步验证</h1>
      <p>请输入验证器应用中的 6 位验证码，或一个恢复码。验证后 12 小时内无需再次输入。</p>
      {error ? <Notice kind="error">{error}</Notice> : null}
      <form method="post" action="/admin/two-step/verify">
        <input type="hidden" name="next" value={next} />
        <div className="field">
          <label htmlFor="code">验证码或恢复码</label>
          <input className="code-input" id="code" name="code" autoComplete="one-time-code" maxLength={16} required />
        </div>
        <button type="submit">验证</button>
      </form>
    </section>
  );
}
