/**
 * The `console.error` lines written by the worker code running in this test file's isolate,
 * collected here instead of being sent to the test runner. A log written by work the worker left
 * behind a finished answer (supabase-js logs a call cut off by the request's deadline after the
 * 503 has gone) can arrive while the file is being torn down, and vitest-pool-workers then fails
 * the whole run ("Closing rpc while onUserConsoleLog was pending"). Call once, at the top of a file.
 */
export function collectErrorLogs(): string[] {
  const lines: string[] = [];
  console.error = (...args: unknown[]) => {
    lines.push(args.map((arg) => (arg instanceof Error ? `${arg.name}: ${arg.message}` : String(arg))).join(" "));
  };
  return lines;
}
