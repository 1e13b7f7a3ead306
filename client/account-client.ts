import type { AccountActions, AuthFailure, AuthResult } from "../shared/account-actions";
import type { DeviceSession } from "../shared/device-session";
import { GENERIC_AUTH_ERROR, RATE_LIMITED } from "../shared/auth-generic";
import { parseLibrary, type Library } from "../shared/library";
import type { SessionUser } from "../shared/session-user";

/** The auth events of spec §4 that this site produces. */
export type AuthChangeEvent = "INITIAL_SESSION" | "SIGNED_IN" | "SIGNED_OUT" | "USER_UPDATED" | "TOKEN_REFRESHED";
export type AuthListener = (event: AuthChangeEvent, session: { user: SessionUser } | null) => void;

interface ApiBody {
  sessions?: DeviceSession[];
  user?: SessionUser | null;
  library?: unknown;
  confirmationRequired?: boolean;
  otherAccount?: boolean;
  error?: { code?: string; message?: string };
}

interface Broadcast {
  event: AuthChangeEvent;
  user: SessionUser | null;
  library: Library | null;
}

const CHANNEL = "yingshi-auth";

/**
 * The browser's account client (spec §7): getUser, signInWithPassword,
 * signUp, signOut and onAuthStateChange, over the worker's /api/auth/* (the
 * session lives in an HttpOnly cookie; no token ever reaches this code).
 * Tabs stay in step through a BroadcastChannel.
 */
export class AccountClient implements AccountActions {
  private user: SessionUser | null;
  private accountLibrary: Library | null;
  private readonly listeners = new Set<AuthListener>();
  private readonly channel: BroadcastChannel | null;

  constructor(initialUser: SessionUser | null, initialLibrary: Library | null) {
    this.user = initialUser;
    this.accountLibrary = initialLibrary;
    this.channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
    this.channel?.addEventListener("message", (message: MessageEvent<Broadcast>) => {
      const { event, user, library } = message.data;
      this.set(event, user, library, false);
    });
  }

  currentUser(): SessionUser | null {
    return this.user;
  }

  /** The library saved in the account at the last sign-in or update. */
  savedLibrary(): Library | null {
    return this.accountLibrary;
  }

  onAuthStateChange(listener: AuthListener): { data: { subscription: { unsubscribe(): void } } } {
    this.listeners.add(listener);
    queueMicrotask(() => listener("INITIAL_SESSION", this.user ? { user: this.user } : null));
    return { data: { subscription: { unsubscribe: () => this.listeners.delete(listener) } } };
  }

  private set(event: AuthChangeEvent, user: SessionUser | null, library: Library | null, broadcast: boolean): void {
    this.user = user;
    this.accountLibrary = user ? library : null;
    if (broadcast) this.channel?.postMessage({ event, user, library: this.accountLibrary } satisfies Broadcast);
    for (const listener of this.listeners) {
      try {
        listener(event, user ? { user } : null);
      } catch (error) {
        console.error("auth listener failed", error);
      }
    }
  }

  private async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: ApiBody; headers: Headers }> {
    const res = await fetch(`/api/auth/${path}`, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let parsed: ApiBody = {};
    try {
      parsed = await res.json<ApiBody>();
    } catch {
      // not JSON: handled as a failure below
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  private static failure(status: number, body: ApiBody): AuthFailure {
    const code = body.error?.code ?? (status === 429 ? "over_request_rate_limit" : "unknown");
    // The worker's answers carry their Chinese message; an answer without one (a proxy's) gets the general one.
    return { code, message: body.error?.message || (status === 429 ? RATE_LIMITED : GENERIC_AUTH_ERROR) };
  }

  /** Asks the worker who is signed in; emits SIGNED_OUT / TOKEN_REFRESHED when that changed. */
  async getUser(): Promise<{ data: { user: SessionUser | null }; error: AuthFailure | null }> {
    try {
      const { status, body, headers } = await this.call("GET", "user");
      if (status !== 200) return { data: { user: this.user }, error: AccountClient.failure(status, body) };
      const user = body.user ?? null;
      const library = body.library ? parseLibrary(body.library) : null;
      if (!user && this.user) this.set("SIGNED_OUT", null, null, true);
      else if (user && !this.user) this.set("SIGNED_IN", user, library, true);
      else if (user && headers.get("X-Auth-Event") === "TOKEN_REFRESHED") this.set("TOKEN_REFRESHED", user, library, false);
      return { data: { user }, error: null };
    } catch (error) {
      console.error("getUser failed", error);
      return { data: { user: this.user }, error: { code: "network", message: GENERIC_AUTH_ERROR } };
    }
  }

  private async authenticate(path: "sign-in" | "sign-up" | "reset", payload: Record<string, string>): Promise<AuthResult> {
    try {
      const { status, body } = await this.call("POST", path, payload);
      if (status !== 200) return { user: null, error: AccountClient.failure(status, body) };
      const user = body.user ?? null;
      const library = body.library ? parseLibrary(body.library) : null;
      const otherAccount = body.otherAccount ?? false;
      // A link of another account leaves this browser signed in as it was: nothing to announce.
      if (user && !otherAccount) this.set("SIGNED_IN", user, library, true);
      return { user, error: null, confirmationRequired: body.confirmationRequired ?? false, library, otherAccount };
    } catch (error) {
      console.error(`${path} failed`, error);
      return { user: null, error: { code: "network", message: GENERIC_AUTH_ERROR } };
    }
  }

  signInWithPassword({ email, password }: { email: string; password: string }): Promise<AuthResult> {
    return this.authenticate("sign-in", { email, password });
  }

  signIn(email: string, password: string): Promise<AuthResult> {
    return this.signInWithPassword({ email, password });
  }

  signUp(email: string, password: string, confirmPassword: string): Promise<AuthResult> {
    return this.authenticate("sign-up", { email, password, confirmPassword });
  }

  async signOut(scope: "local" | "global" = "local"): Promise<void> {
    try {
      await this.call("POST", "sign-out", scope === "local" ? {} : { scope });
    } catch (error) {
      console.error("sign-out failed", error);
    }
    this.set("SIGNED_OUT", null, null, true);
  }

  /** A call whose only result is success or a failure to show. */
  private async attempt(method: string, path: string, body?: unknown): Promise<AuthFailure | null> {
    try {
      const { status, body: answer } = await this.call(method, path, body);
      return status === 200 ? null : AccountClient.failure(status, answer);
    } catch (error) {
      console.error(`${path} failed`, error);
      return { code: "network", message: GENERIC_AUTH_ERROR };
    }
  }

  requestPasswordReset(email: string): Promise<AuthFailure | null> {
    return this.attempt("POST", "recover", { email });
  }

  resetPassword(tokenHash: string, password: string, confirmPassword: string): Promise<AuthResult> {
    return this.authenticate("reset", { token_hash: tokenHash, password, confirmPassword });
  }

  async listSessions(): Promise<{ sessions: DeviceSession[] | null; error: AuthFailure | null }> {
    try {
      const { status, body } = await this.call("GET", "sessions");
      if (status !== 200 || !Array.isArray(body.sessions)) return { sessions: null, error: AccountClient.failure(status, body) };
      return { sessions: body.sessions, error: null };
    } catch (error) {
      console.error("listing sessions failed", error);
      return { sessions: null, error: { code: "network", message: GENERIC_AUTH_ERROR } };
    }
  }

  signOutSession(id: string): Promise<AuthFailure | null> {
    return this.attempt("POST", `sessions/${encodeURIComponent(id)}/sign-out`, {});
  }

  /** Saves the library in the account (signed in only); emits USER_UPDATED. */
  async saveLibrary(library: Library, keepalive = false): Promise<boolean> {
    if (!this.user) return false;
    try {
      const res = await fetch("/api/auth/user", {
        method: "PUT",
        credentials: "same-origin",
        keepalive,
        headers: { Accept: "application/json", "Content-Type": "application/json" },
        body: JSON.stringify({ data: { library } }),
      });
      if (!res.ok) return false;
      const body = await res.json<ApiBody>();
      if (body.user) this.set("USER_UPDATED", body.user, body.library ? parseLibrary(body.library) : library, true);
      return true;
    } catch (error) {
      console.error("saving the library failed", error);
      return false;
    }
  }
}
