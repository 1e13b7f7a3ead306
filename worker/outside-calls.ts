/**
 * Every outside call of a request has a deadline (issue 35; docs/decisions/0068-outside-call-deadlines.md):
 * the request's bindings are wrapped once, at the top of the app (worker/request-bindings.ts), so
 * that no module can forget one. D1 statements and batches, R2 reads and writes (a multipart
 * upload's parts too) and Durable Object stubs (`fetch` and every RPC method) answer within their
 * deadline or throw a DeadlineError, which worker/fault-answers.ts turns into a 503 with
 * Retry-After. The account service and the mail API take an AbortSignal of their own
 * (worker/auth/service-fetch.ts, worker/mail/index.ts). The edge cache (the Workers Cache API) is
 * wrapped where it is opened (worker/http/edge-cache.ts): a lookup past its deadline is a miss.
 *
 * The wrapped call is not cancelled (D1, R2 and stubs take no signal): the request stops waiting.
 */
import { withDeadline } from "./deadline";

/** How long one D1 statement or batch, one R2 read or one Durable Object call may take by default. */
export const STORAGE_TIMEOUT_MS = 5_000;
/** An R2 write streams a request's body (up to a multipart part): it gets this long. */
export const R2_WRITE_TIMEOUT_MS = 120_000;

const underlying = new WeakMap<object, { binding: object; ms: number }>();

/** The binding a wrapper of this module stands for (itself when it is not one): for per-binding memos. */
export function underlyingBinding<T extends object>(binding: T): T {
  return (underlying.get(binding)?.binding as T | undefined) ?? binding;
}

/** A D1 database or a session of one: what the worker's code calls. */
type D1Reader = Pick<D1Database, "prepare" | "batch">;

const statements = new WeakMap<D1PreparedStatement, D1PreparedStatement>();

/** The statement D1 made, under a deadline-keeping one (a batch takes the real ones). */
function realStatement(statement: D1PreparedStatement): D1PreparedStatement {
  return statements.get(statement) ?? statement;
}

function guardedStatement(real: D1PreparedStatement, ms: number): D1PreparedStatement {
  const guarded: D1PreparedStatement = {
    bind: (...values: unknown[]) => guardedStatement(real.bind(...values), ms),
    first: (column?: string) => withDeadline(column === undefined ? real.first() : real.first(column), ms, "D1 first"),
    run: () => withDeadline(real.run(), ms, "D1 run"),
    all: () => withDeadline(real.all(), ms, "D1 all"),
    raw: ((options?: { columnNames?: boolean }) =>
      withDeadline<unknown>(options?.columnNames ? real.raw({ columnNames: true }) : real.raw(), ms, "D1 raw")) as D1PreparedStatement["raw"],
  };
  statements.set(guarded, real);
  return guarded;
}

/**
 * `db` (reads through `reads`, a D1 session, when given) with a deadline of `ms` on every statement
 * and batch. `exec`, `dump` and `withSession` go to `db` itself (exec under the deadline too).
 */
export function guardedD1(db: D1Database, ms: number, reads: D1Reader = db): D1Database {
  const guarded = {
    prepare: (query: string) => guardedStatement(reads.prepare(query), ms),
    batch: <T = unknown>(list: D1PreparedStatement[]) => withDeadline(reads.batch<T>(list.map(realStatement)), ms, "D1 batch"),
    exec: (query: string) => withDeadline(db.exec(query), ms, "D1 exec"),
    withSession: (constraint?: string) => db.withSession(constraint),
    dump: () => withDeadline(db.dump(), ms, "D1 dump"),
  };
  underlying.set(guarded, { binding: underlyingBinding(db), ms });
  return guarded;
}

/**
 * `db` read through a "first-primary" session, with the same deadlines: the first statement goes to
 * the primary, the rest to replicas at least as recent. Every request then sees every write made
 * before it started, at the cost of one round trip to the primary: the account service reads this
 * way (a session or refresh token written by the previous request must be found by the next).
 */
export function primaryFirst(db: D1Database): D1Database {
  const known = underlying.get(db);
  const binding = (known?.binding ?? db) as D1Database;
  return guardedD1(binding, known?.ms ?? STORAGE_TIMEOUT_MS, binding.withSession("first-primary"));
}

/** A D1 database seen by a Durable Object (its env is not the request's): the same deadlines. */
export function guardedObjectD1(db: D1Database): D1Database {
  return guardedD1(db, STORAGE_TIMEOUT_MS);
}

/** Whether `value` is a promise-like (an RPC call's answer, a binding's promise). */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * `target` with each method's promise under a deadline: `msOf(name)` says how long (null: not a
 * call to wait for), `wrapResult` wraps what a method returns (a stub, a multipart upload).
 */
function deadlineProxy<T extends object>(
  target: T,
  what: string,
  msOf: (name: string) => number | null,
  wrapResult?: (name: string, value: unknown) => unknown,
): T {
  return new Proxy(target, {
    get(object, name) {
      if (name === "then") return undefined;
      const value: unknown = Reflect.get(object, name, object);
      if (typeof value !== "function" || typeof name !== "string") return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        const result = Reflect.apply(method, object, args);
        const ms = msOf(name);
        if (ms !== null && isThenable(result)) {
          const settled = Promise.resolve(result).then((answer) => (wrapResult ? wrapResult(name, answer) : answer));
          return withDeadline(settled, ms, `${what}.${name}`);
        }
        return wrapResult ? wrapResult(name, result) : result;
      };
    },
  });
}

const R2_WRITES = new Set(["put", "uploadPart", "complete"]);

function guardedMultipart(upload: R2MultipartUpload, ms: number): R2MultipartUpload {
  return deadlineProxy(upload, "R2 multipart", (name) => (R2_WRITES.has(name) ? Math.max(ms, R2_WRITE_TIMEOUT_MS) : ms));
}

/** An R2 bucket whose every call answers within `ms` (writes with a body: R2_WRITE_TIMEOUT_MS). */
export function guardedR2(bucket: R2Bucket, ms: number): R2Bucket {
  return deadlineProxy(
    bucket,
    "R2",
    (name) => (R2_WRITES.has(name) ? Math.max(ms, R2_WRITE_TIMEOUT_MS) : ms),
    (name, value) => (name === "createMultipartUpload" || name === "resumeMultipartUpload" ? guardedMultipart(value as R2MultipartUpload, ms) : value),
  );
}

/**
 * The edge cache with a deadline on every call: `match` and `delete` within `ms`, `put` (it reads
 * the answer's body as it streams) within R2_WRITE_TIMEOUT_MS. The callers treat a failed lookup
 * as a miss and a failed store as not stored.
 */
export function guardedCache(cache: Cache, ms: number): Cache {
  return deadlineProxy(cache, "edge cache", (name) => (name === "put" ? Math.max(ms, R2_WRITE_TIMEOUT_MS) : ms));
}

/** A Durable Object namespace whose stubs answer `fetch` and every RPC method within `ms`. */
export function guardedNamespace<T extends object>(namespace: T, ms: number, what: string): T {
  const stubOf = (stub: object) => deadlineProxy(stub, what, () => ms);
  return deadlineProxy(
    namespace,
    what,
    () => null,
    (name, value) => (name === "get" || name === "getByName" ? stubOf(value as object) : value),
  );
}
