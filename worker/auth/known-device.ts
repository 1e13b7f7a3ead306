/**
 * The browser side of known devices (worker/account-service/known-devices.ts): the device
 * cookie is read on every sign-in and set after a successful one. HttpOnly, only sent to
 * /api/auth (SameSite=Lax like the session's), for DEVICE_TTL_MS after the last sign-in.
 */
import { getCookie } from "hono/cookie";
import { DEVICE_COOKIE, DEVICE_TTL_MS, deviceToken, newDeviceToken, rememberDevice } from "../account-service/known-devices";
import type { AppContext } from "../app-env";
import type { RequestSession } from "./session";

/** The request's device token, when its cookie holds one. */
export function knownDeviceToken(c: AppContext): string | null {
  return deviceToken(getCookie(c, DEVICE_COOKIE));
}

/**
 * After a successful password sign-in to `email`: the device is remembered for the account and
 * its cookie (the same token when it had one: one token per browser, known to each account
 * that signed in on it) goes out with the response. A failing store never fails the sign-in.
 */
export async function rememberThisDevice(c: AppContext, session: RequestSession, email: string): Promise<void> {
  const token = knownDeviceToken(c) ?? newDeviceToken();
  try {
    await rememberDevice(c.env.DB, token, email.trim().toLowerCase().slice(0, 255), Date.now());
  } catch (error) {
    console.error("known devices unavailable", error);
    return;
  }
  session.pendingCookies.push({
    name: DEVICE_COOKIE,
    value: token,
    options: { httpOnly: true, secure: session.secure, sameSite: "lax", path: "/api/auth", maxAge: DEVICE_TTL_MS / 1000 },
  });
}
