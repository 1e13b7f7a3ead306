import { useId, useReducer, type FormEvent } from "react";
import { initialAuthForm, nextAuthForm, settleSubmission } from "../auth-form";

/** What an account form's onSubmit runs: resolves to the message to show, or null when it went through. */
export type Submission = () => Promise<string | null>;

/**
 * The status, message and submit handler every account form shares (transitions in
 * shared/auth-form.ts). The forms stay plain form POSTs without JavaScript; with it, onSubmit
 * takes over: a second submit while one is under way is ignored, `check` (client-side rules) can
 * stop it with a message, and a submission that throws shows 操作失败，请重试.
 */
export function useAuthForm(initialError: string | null) {
  const [state, dispatch] = useReducer(nextAuthForm, initialError, initialAuthForm);
  const errorId = useId();
  const submitting = state.status === "submitting";

  function onSubmit(submission: Submission, check?: () => string | null) {
    return (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (submitting) return;
      const invalid = check?.() ?? null;
      if (invalid) {
        dispatch({ type: "show", error: invalid });
        return;
      }
      dispatch({ type: "submit" });
      void settleSubmission(submission).then((error) => dispatch({ type: "settled", error }));
    };
  }

  return {
    ...state,
    submitting,
    errorId,
    /** Shows a message (or clears it with null) without a submission: a new URL, a switched mode. */
    show: (error: string | null) => dispatch({ type: "show", error }),
    onSubmit,
  };
}

export type AuthFormControl = ReturnType<typeof useAuthForm>;
