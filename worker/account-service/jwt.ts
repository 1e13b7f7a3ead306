/**
 * Access tokens: HS256 JWTs signed and verified with hono/jwt. Verification checks the signature,
 * the algorithm, `iss` and `aud`; the time claims are checked against the service's clock (tests
 * move it), not the wall clock hono/jwt would use.
 */
import { decode, sign, verify } from "hono/jwt";

export type JwtPayload = Record<string, unknown>;

export class JwtError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JwtError";
  }
}

export function signJwt(payload: JwtPayload, secret: string): Promise<string> {
  return sign(payload, secret, "HS256");
}

export interface VerifyOptions {
  issuer: string;
  audience: string;
  nowMs: number;
}

/** Verifies an access token; throws JwtError with a short reason (worded like GoTrue's). */
export async function verifyJwt(token: string, secret: string, { issuer, audience, nowMs }: VerifyOptions): Promise<JwtPayload> {
  let payload: JwtPayload;
  try {
    payload = await verify(token, secret, { alg: "HS256", iss: issuer, aud: audience, exp: false, nbf: false, iat: false });
  } catch (error) {
    throw new JwtError(error instanceof Error ? error.message : "token is malformed");
  }
  const { exp, nbf } = payload;
  if (typeof exp !== "number" || !Number.isFinite(exp)) throw new JwtError("token is missing required claim: exp claim is required");
  if (nowMs > exp * 1000) throw new JwtError("token has invalid claims: token is expired");
  if (nbf !== undefined && (typeof nbf !== "number" || nowMs < nbf * 1000)) throw new JwtError("token has invalid claims: token is not valid yet");
  return payload;
}

/** The payload without any check (tests, and reading the expiry of a stored session). */
export function decodeJwtPayload(token: string): JwtPayload | null {
  try {
    const { payload } = decode(token);
    return typeof payload === "object" && payload !== null ? payload : null;
  } catch {
    return null;
  }
}
