import { useEffect, useImperativeHandle, useState, type MouseEvent } from "react";
import { fetchSuggestions } from "./search-suggestions";
import { readHistory, writeHistory } from "./search-history-store";
import { normaliseQuery } from "../search/normalise";
import { searchHref, type SuggestResponse, type Suggestion } from "../search/query";
import { Highlighted } from "./Highlighted";
import type { SearchPopupProps } from "./SearchBox";
import { FALLBACK_COVER } from "./VideoCard";

type Option = { kind: "video"; suggestion: Suggestion } | { kind: "history" | "hot"; query: string } | { kind: "clear" };

/** Answers already fetched in this page view, by normalised query. */
const answers = new Map<string, SuggestResponse>();

/**
 * The listbox under the header's search box: titles as you type (pinyin
 * included), or 搜索历史 and 热门搜索 when the box is empty. Keys: ↓/↑ move
 * (wrapping), Enter picks, Escape closes; options are picked with a click or tap.
 */
export function SearchPopup({ listboxId, text, focused, onState, keys, go }: SearchPopupProps) {
  const q = normaliseQuery(text);
  const [answer, setAnswer] = useState<SuggestResponse | null>(() => answers.get(q) ?? null);
  const [history, setHistory] = useState<string[]>(() => readHistory());
  const [active, setActive] = useState(-1);
  const [dismissed, setDismissed] = useState(false);

  // A new query shows its answer at once when this page view already fetched it (set while
  // rendering, not in an effect); otherwise the effect below fetches it.
  const [answeredQ, setAnsweredQ] = useState(q);
  if (answeredQ !== q) {
    setAnsweredQ(q);
    const known = answers.get(q);
    if (known) setAnswer(known);
  }

  useEffect(() => {
    if (answers.has(q)) return;
    const controller = new AbortController();
    fetchSuggestions(q, controller.signal).then(
      (res) => {
        answers.set(q, res);
        setAnswer(res);
      },
      () => undefined, // aborted by the next key, or offline: no suggestions, the form still works
    );
    return () => controller.abort();
  }, [q]);

  // Typing reopens the list and starts again from the box; so does coming back to it
  // (both adjusted while rendering, from the previous text and focus).
  const [prevText, setPrevText] = useState(text);
  if (prevText !== text) {
    setPrevText(text);
    setActive(-1);
    setDismissed(false);
  }
  const [prevFocused, setPrevFocused] = useState(focused);
  if (prevFocused !== focused) {
    setPrevFocused(focused);
    if (focused) {
      setHistory(readHistory()); // another tab may have searched meanwhile
      setDismissed(false);
      setActive(-1);
    }
  }

  const hot = answers.get("")?.hot ?? (answer && !answer.q ? answer.hot : []);
  const options: Option[] = q
    ? (answer && answer.q ? answer.items : []).map((suggestion) => ({ kind: "video", suggestion }))
    : [
        ...history.map((query): Option => ({ kind: "history", query })),
        ...(history.length > 0 ? [{ kind: "clear" } as const] : []),
        ...hot.map((query): Option => ({ kind: "hot", query })),
      ];
  const open = focused && !dismissed && options.length > 0;
  const current = open && active >= 0 && active < options.length ? active : -1;
  const optionId = (i: number) => `${listboxId}-${i}`;
  const activeId = current >= 0 ? optionId(current) : null;

  useEffect(() => onState({ open, activeId }), [open, activeId, onState]);

  const pick = (option: Option) => {
    switch (option.kind) {
      case "video":
        go(`/video/${option.suggestion.id}`, text);
        break;
      case "history":
      case "hot":
        go(searchHref(option.query) ?? "/search", option.query);
        break;
      case "clear":
        writeHistory([]);
        setHistory([]);
        setActive(-1);
        break;
    }
  };

  // The box offers its key presses to this handler (through the `keys` ref it passes down).
  useImperativeHandle(keys, () => (key: string) => {
    const n = options.length;
    switch (key) {
      case "ArrowDown":
        if (n === 0) return false;
        setDismissed(false);
        setActive(open ? (current + 1) % n : 0);
        return true;
      case "ArrowUp":
        if (!open) return false;
        setActive(current <= 0 ? n - 1 : current - 1);
        return true;
      case "Enter":
        if (current < 0) return false; // the form submits the typed text
        pick(options[current]);
        return true;
      case "Escape":
        if (!open) return false; // the box clears itself
        setDismissed(true);
        setActive(-1);
        return true;
      default:
        return false;
    }
  });

  const optionProps = (i: number, option: Option) => ({
    id: optionId(i),
    role: "option",
    "aria-selected": i === current,
    className: `search-option search-option-${option.kind}${i === current ? " is-active" : ""}`,
    // Keep the focus in the box (the list closes when the box loses it).
    onMouseDown: (e: MouseEvent) => e.preventDefault(),
    onClick: () => pick(option),
  });

  const historyCount = history.length > 0 ? history.length + 1 : 0;
  return (
    <div className="search-popup" hidden={!open}>
      <div id={listboxId} role="listbox" aria-label="搜索建议" className="search-listbox">
        {q
          ? options.map((option, i) =>
              option.kind === "video" ? (
                <div key={option.suggestion.id} {...optionProps(i, option)}>
                  <img src={option.suggestion.cover} data-fallback={FALLBACK_COVER} alt="" width={64} height={36} loading="lazy" decoding="async" />
                  <span className="search-option-text">
                    <span className="search-option-title">
                      <Highlighted text={option.suggestion.title} marks={option.suggestion.marks} />
                    </span>
                    <span className="search-option-meta">
                      {option.suggestion.year} · {option.suggestion.category}
                    </span>
                  </span>
                </div>
              ) : null,
            )
          : null}
        {!q && historyCount > 0 ? (
          <div role="group" aria-labelledby={`${listboxId}-history`} className="search-group">
            <div id={`${listboxId}-history`} className="search-group-label">
              搜索历史
            </div>
            {options.slice(0, historyCount).map((option, i) => (
              <div key={option.kind === "clear" ? "clear" : `h-${i}`} {...optionProps(i, option)}>
                {option.kind === "history" ? option.query : "清空搜索历史"}
              </div>
            ))}
          </div>
        ) : null}
        {!q && hot.length > 0 ? (
          <div role="group" aria-labelledby={`${listboxId}-hot`} className="search-group">
            <div id={`${listboxId}-hot`} className="search-group-label">
              热门搜索
            </div>
            {options.slice(historyCount).map((option, j) => (
              <div key={`hot-${j}`} {...optionProps(historyCount + j, option)}>
                <span className="search-hot-rank" aria-hidden="true">
                  {j + 1}
                </span>
                {option.kind === "hot" ? option.query : null}
              </div>
            ))}
          </div>
        ) : null}
      </div>
    </div>
  );
}
