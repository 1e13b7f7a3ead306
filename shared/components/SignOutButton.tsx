/**
 * Sign-out: a POST form to the worker, so it works without JavaScript; the
 * worker clears the session cookies and redirects to /.
 */
export function SignOutButton({ className }: { className?: string }) {
  return (
    <form method="post" action="/api/auth/sign-out" className="inline-form">
      <button type="submit" className={className}>
        退出登录
      </button>
    </form>
  );
}
