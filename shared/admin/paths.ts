/**
 * The 管理后台 is a separate app (docs/decisions/0072-admin-app.md): its paths are not routes of
 * the viewer's router, so a viewer page that sends the browser there (the sign-in form's `next`)
 * loads the document instead of navigating in place.
 */
export function isAdminPath(path: string): boolean {
  return /^\/admin(?:[/?#]|$)/.test(path);
}
