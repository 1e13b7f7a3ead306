import { createContext, useContext } from "react";
import type { AccountActions, AuthResult } from "../account-actions";

/** The visitor's account for the pages (client/entry.tsx provides the browser's; the server renders with the default). */
const unavailable = (): Promise<AuthResult> => Promise.resolve({ user: null, error: { code: "unavailable", message: "操作失败，请重试" } });

/** Default (server render): nothing can be done before the page is interactive. */
const notYet = { code: "unavailable", message: "操作失败，请重试" };

export const AccountContext = createContext<AccountActions>({
  signIn: unavailable,
  signUp: unavailable,
  signOut: async () => {},
  requestPasswordReset: () => Promise.resolve(notYet),
  resetPassword: unavailable,
  listSessions: () => Promise.resolve({ sessions: null, error: notYet }),
  signOutSession: () => Promise.resolve(notYet),
});

export function useAccount(): AccountActions {
  return useContext(AccountContext);
}
