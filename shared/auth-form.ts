import type { AuthFailure } from "./account-actions";
import { authErrorMessage } from "./auth-messages";

/**
 * The state every account form shares (sign-in, sign-up, 忘记密码, 设置新密码), as pure
 * transitions; shared/components/useAuthForm.ts holds it in React.
 *   idle → submitting → done | error; a failed client-side check goes straight to error.
 */
export type AuthFormStatus = "idle" | "submitting" | "done" | "error";

export interface AuthFormState {
  status: AuthFormStatus;
  /** The Chinese message shown above the form (status "error" only). */
  error: string | null;
}

export type AuthFormEvent =
  /** The form was sent: the old message goes. Ignored while a submission is under way. */
  | { type: "submit" }
  /** The submission came back: a message to show, or null when it went through. */
  | { type: "settled"; error: string | null }
  /** A message from a client-side check or from the page's URL (?error=…); null clears it. */
  | { type: "show"; error: string | null };

/** The state a form opens with (`error`: the message of the no-JavaScript path, if any). */
export function initialAuthForm(error: string | null): AuthFormState {
  return error ? { status: "error", error } : { status: "idle", error: null };
}

export function nextAuthForm(state: AuthFormState, event: AuthFormEvent): AuthFormState {
  switch (event.type) {
    case "submit":
      return state.status === "submitting" ? state : { status: "submitting", error: null };
    case "settled":
      return event.error ? { status: "error", error: event.error } : { status: "done", error: null };
    case "show":
      return initialAuthForm(event.error);
  }
}

/** The message of an account service failure (its own Chinese text, else 操作失败，请重试), or null. */
export function failureMessage(failure: AuthFailure | null | undefined): string | null {
  return failure ? failure.message || authErrorMessage(null) : null;
}

/**
 * Runs a form's submission and returns the message to show (null: it went through). A submission
 * that throws — a failed fetch, a network error, a bug — shows 操作失败，请重试 instead of
 * leaving an unhandled rejection and a form that says nothing.
 */
export async function settleSubmission(submission: () => Promise<string | null>): Promise<string | null> {
  try {
    return await submission();
  } catch (error) {
    console.error("提交失败", error);
    return authErrorMessage(null);
  }
}
