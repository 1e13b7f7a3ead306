/**
 * Ends the current task so the browser can handle input and paint before the page's start goes
 * on (docs/decisions/0017-early-input.md): `scheduler.yield()` where the browser has it (the
 * rest runs before other queued tasks), else a new task.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return typeof scheduler?.yield === "function" ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}
