import { useRef, useState, type ComponentType, type FormEvent, type RefObject } from "react";
import { useLocation, useNavigate } from "../router";
import { rememberSearch } from "./search-history-store";
import { searchHref } from "../search/query";

/** What the suggestion popup tells the box: whether it is open and which option is active. */
export interface PopupState {
  open: boolean;
  activeId: string | null;
}

/** A key press in the box, offered to the popup first: true when the popup used it. */
export type KeyHandler = (key: string) => boolean;

export interface SearchPopupProps {
  listboxId: string;
  text: string;
  focused: boolean;
  onState: (state: PopupState) => void;
  keys: RefObject<KeyHandler | null>;
  /** Leaves the box for `href`, remembering `query` in 搜索历史. */
  go: (href: string, query: string) => void;
}

const CLOSED: PopupState = { open: false, activeId: null };

/**
 * A fixed id (there is one header per page): the server and the browser render
 * different trees around the page, so a useId() value would differ between the
 * HTML and a popup mounted later, and the box would point at no listbox.
 */
const LISTBOX_ID = "site-search-listbox";

/**
 * The header's search box: a form that works without JavaScript (GET /search?q=…),
 * and once hydrated a WAI-ARIA 1.2 combobox (an `<input type="text">`: the HTML
 * checker does not allow role=combobox on type=search; inputMode and enterKeyHint
 * still give phones their search keyboard). The suggestion popup (SearchPopup) is
 * a separate chunk, loaded when the box is first focused or hovered, so it costs
 * no bytes before interaction.
 */
export function SearchBox() {
  const navigate = useNavigate();
  const location = useLocation();
  const initial = location.pathname === "/search" ? (new URLSearchParams(location.search).get("q") ?? "") : "";
  const [text, setText] = useState(initial);
  const [focused, setFocused] = useState(false);
  const [popup, setPopup] = useState<PopupState>(CLOSED);
  const [Popup, setPopupComponent] = useState<ComponentType<SearchPopupProps> | null>(null);
  const keys = useRef<KeyHandler | null>(null);
  const input = useRef<HTMLInputElement>(null);

  // Keep the box in step with the URL (the query of /search, empty elsewhere): when the
  // URL changes, the text is reset while rendering (no effect, no extra commit).
  const url = location.pathname + location.search;
  const [shownUrl, setShownUrl] = useState(url);
  if (url !== shownUrl) {
    setShownUrl(url);
    setText(initial);
  }

  const load = () => {
    if (Popup) return;
    import("./SearchPopup").then(
      (m) => setPopupComponent(() => m.SearchPopup),
      () => undefined, // offline or a new deploy: the plain form still searches
    );
  };

  const go = (href: string, query: string) => {
    rememberSearch(query);
    setPopup(CLOSED);
    input.current?.blur();
    void navigate(href);
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const href = searchHref(text);
    if (href) go(href, text);
  }

  return (
    <form className="search-form" role="search" action="/search" method="get" onSubmit={onSubmit}>
      <div className="search-combo">
        <input
          ref={input}
          type="text"
          inputMode="search"
          name="q"
          className="search-input"
          placeholder="搜索影片、剧集、综艺…"
          aria-label="搜索视频"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={popup.open}
          aria-controls={LISTBOX_ID}
          aria-activedescendant={popup.activeId ?? undefined}
          autoComplete="off"
          value={text}
          maxLength={100}
          onChange={(e) => setText(e.target.value)}
          onFocus={() => {
            setFocused(true);
            load();
          }}
          onBlur={() => setFocused(false)}
          onPointerEnter={load}
          onKeyDown={(e) => {
            // Keys that confirm an IME composition (Enter while typing pinyin) belong to the IME.
            if (e.nativeEvent.isComposing) return;
            if (keys.current?.(e.key)) e.preventDefault();
            else if (e.key === "Escape" && text) {
              // The list is closed: Escape clears the box (WAI-ARIA combobox pattern).
              e.preventDefault();
              setText("");
            }
          }}
          enterKeyHint="search"
        />
        {Popup ? (
          <Popup listboxId={LISTBOX_ID} text={text} focused={focused} onState={setPopup} keys={keys} go={go} />
        ) : (
          <div id={LISTBOX_ID} role="listbox" aria-label="搜索建议" hidden />
        )}
      </div>
      <button type="submit" className="search-button">
        搜索
      </button>
    </form>
  );
}
