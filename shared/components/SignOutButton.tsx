import { useNavigate } from "../router";
import { useAccount } from "./account-context";

/**
 * Sign-out: a POST form to the worker, so it works without JavaScript (the
 * worker clears the session cookies and redirects to /); with JavaScript the
 * account client signs out, then the page goes to /.
 */
export function SignOutButton({ className }: { className?: string }) {
  const account = useAccount();
  const navigate = useNavigate();
  return (
    <form
      method="post"
      action="/api/auth/sign-out"
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        void account.signOut().then(() => navigate("/", { replace: true }));
      }}
    >
      <button type="submit" className={className}>
        退出登录
      </button>
    </form>
  );
}
