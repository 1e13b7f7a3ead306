/** What the pages may ask of the visitor's account, and its answers (the browser implements it: client/account-client.ts). */
import type { DeviceSession } from "./device-session";
import type { Library } from "./library";
import type { SessionUser } from "./session-user";

export interface AuthFailure {
  code: string;
  /** Chinese text to show in the form. */
  message: string;
}

export interface AuthResult {
  user: SessionUser | null;
  error: AuthFailure | null;
  /** Sign-up only: the account must confirm its e-mail before signing in. */
  confirmationRequired?: boolean;
  library?: Library | null;
  /** An e-mail link of another account was used while signed in: the browser stays signed in as `user`. */
  otherAccount?: boolean;
}

/** What pages can ask of the account (the browser implements it over /api/auth/*). */
export interface AccountActions {
  signIn(email: string, password: string): Promise<AuthResult>;
  signUp(email: string, password: string, confirmPassword: string): Promise<AuthResult>;
  /** "global" signs out every device of the account (退出所有设备). */
  signOut(scope?: "local" | "global"): Promise<void>;
  /** 忘记密码: asks for the reset e-mail; null when the request was accepted (the same for every address). */
  requestPasswordReset(email: string): Promise<AuthFailure | null>;
  /** The new password from a reset link; signs in. */
  resetPassword(tokenHash: string, password: string, confirmPassword: string): Promise<AuthResult>;
  /** The account's signed-in devices. */
  listSessions(): Promise<{ sessions: DeviceSession[] | null; error: AuthFailure | null }>;
  /** 退出此设备. */
  signOutSession(id: string): Promise<AuthFailure | null>;
}
