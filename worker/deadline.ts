/**
 * Deadlines for outside calls that take no AbortSignal (D1, R2, Durable Object stubs): the call
 * is not cancelled, but the request stops waiting for it and answers as it would on an error
 * (the play flushes: docs/decisions/0060-plays-aggregation.md).
 */

/** Thrown when a call passed its deadline; `what` names the call for the log line. */
export class DeadlineError extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what}: no answer within ${ms} ms`);
    this.name = "DeadlineError";
  }
}

/** `work`, or a DeadlineError once `ms` passed without it settling. */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(what, ms)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
