/**
 * JSON for an inline <script>: every character that could end the script
 * element or start an HTML comment is written as a \u escape, so that no
 * string inside the data (a search query, say) can inject markup.
 */
export function serializeForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
