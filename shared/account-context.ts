import { createContext, useContext } from "react";
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
}

/** What pages can ask of the account (the browser implements it over /api/auth/*). */
export interface AccountActions {
  signIn(email: string, password: string): Promise<AuthResult>;
  signUp(email: string, password: string, confirmPassword: string): Promise<AuthResult>;
  signOut(): Promise<void>;
}

const unavailable = (): Promise<AuthResult> => Promise.resolve({ user: null, error: { code: "unavailable", message: "操作失败，请重试" } });

/** Default (server render): nothing can be done before the page is interactive. */
export const AccountContext = createContext<AccountActions>({
  signIn: unavailable,
  signUp: unavailable,
  signOut: async () => {},
});

export function useAccount(): AccountActions {
  return useContext(AccountContext);
}
