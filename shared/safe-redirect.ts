/**
 * Redirect targets that come from the visitor (`?next=` after sign-in, a form's
 * hidden `next`) may only lead to a path on this site. Anything else — another
 * origin (`//evil.example`, `/\evil.example`, `https://evil.example`), a script
 * (`javascript:`), control characters that browsers strip (`/\t/evil.example`),
 * or an encoded variant that some decoder could turn into one of those
 * (`/%2F%2Fevil.example`, `/%5Cevil.example`) — gives the fallback.
 *
 * The result is normalised the way a browser would resolve it against this site
 * (dot segments removed, non-ASCII percent-encoded), so it can go into a
 * `Location` header as it is.
 */

/** Longest target kept; a longer one is not a link of this site. */
const MAX_REDIRECT_LENGTH = 2048;
/** Any origin will do: only whether the result stays on it matters. */
const PROBE_ORIGIN = "https://same-origin.invalid";

// C0 controls, DEL and the C1 controls; browsers strip tabs and newlines anywhere in a URL.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Starts like a network-path reference once a browser has read it ("//", "/\", "\\", "\/"). */
function startsOffSite(path: string): boolean {
  return /^[/\\][/\\]/.test(path);
}

/** The part before any "?" or "#". */
function pathPart(value: string): string {
  const end = value.search(/[?#]/);
  return end === -1 ? value : value.slice(0, end);
}

/** Decodes only %XX escapes of ASCII characters (never throws on broken escapes). */
function decodeAsciiEscapes(value: string): string {
  return value.replace(/%([0-7][0-9a-fA-F])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Is this path unsafe as it is, or once any number of (partial) decodings have been applied? */
function unsafeAfterDecoding(path: string): boolean {
  let current = path;
  for (let round = 0; round < 4; round++) {
    const decoded = decodeAsciiEscapes(current);
    if (decoded === current) return false;
    if (startsOffSite(decoded) || decoded.includes("\\") || CONTROL.test(decoded)) return true;
    current = decoded;
  }
  // Still changing after several rounds: nobody links like that.
  return true;
}

export function safeRedirectPath(raw: string | null | undefined, fallback = "/"): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_REDIRECT_LENGTH) return fallback;
  if (raw[0] !== "/" || startsOffSite(raw)) return fallback;
  if (raw.includes("\\") || CONTROL.test(raw)) return fallback;
  if (unsafeAfterDecoding(pathPart(raw))) return fallback;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN) return fallback;
  const result = url.pathname + url.search + url.hash;
  // Dot segments can collapse "/.//x" into "//x": check the normalised form again.
  if (result[0] !== "/" || startsOffSite(result) || unsafeAfterDecoding(pathPart(result))) return fallback;
  return result;
}
