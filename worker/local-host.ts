/** Whether a host name is this machine (local development and tests): localhost, 127.x.x.x, [::1]. */
export function isLocalHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}
