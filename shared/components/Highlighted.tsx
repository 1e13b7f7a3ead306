import type { Mark } from "../search/highlight";
import { segments } from "../search/highlight";

/** A title with its matched runs in <mark> (text nodes: React escapes them). */
export function Highlighted({ text, marks }: { text: string; marks: readonly Mark[] | undefined }) {
  if (!marks || marks.length === 0) return <>{text}</>;
  return <>{segments(text, marks).map((s, i) => (s.marked ? <mark key={i}>{s.text}</mark> : s.text))}</>;
}
