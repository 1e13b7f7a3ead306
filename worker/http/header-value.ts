/** Header values as HTTP defines them (RFC 9110 §5.6). */

/** Leading/trailing OWS (SP / HTAB) — the only whitespace HTTP allows around values. */
const OWS_EDGES = /^[ \t]+|[ \t]+$/g;

/** `s` without the optional whitespace around it. */
export function trimOws(s: string): string {
  return s.replace(OWS_EDGES, "");
}
