import { useEffect, useId, useRef, useState, type ReactNode } from "react";

export interface MenuItem<T> {
  value: T;
  label: string;
}

export interface MenuButtonProps<T> {
  /** Text on the button. */
  label: ReactNode;
  /** Accessible name of the button (the choice included, e.g. 清晰度：自动(720P)). */
  ariaLabel: string;
  /** Name of the menu (e.g. 清晰度). */
  title: string;
  className: string;
  items: readonly MenuItem<T>[];
  selected: T;
  onSelect: (value: T) => void;
}

/**
 * A control-bar button that opens a small menu of choices (倍速, 清晰度): the choices are toggle
 * buttons (aria-pressed); a press elsewhere or Escape closes it, Escape returns focus to the button.
 */
export function MenuButton<T extends string | number>(p: MenuButtonProps<T>) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const close = (event: PointerEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    // Escape closes the menu and gives the focus back to its button (before the page's shortcuts see it).
    const escape = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.stopPropagation();
      setOpen(false);
      box.current?.querySelector("button")?.focus();
    };
    document.addEventListener("pointerdown", close);
    box.current?.addEventListener("keydown", escape);
    const el = box.current;
    return () => {
      document.removeEventListener("pointerdown", close);
      el?.removeEventListener("keydown", escape);
    };
  }, [open]);

  return (
    <div className={`player-menu ${p.className}`} ref={box}>
      <button
        type="button"
        className="player-button player-menu-button"
        aria-label={p.ariaLabel}
        title={p.title}
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
      >
        {p.label}
      </button>
      {open ? (
        <div className="player-menu-list" id={menuId} role="group" aria-label={p.title}>
          {p.items.map((item) => (
            <button
              key={item.value}
              type="button"
              aria-pressed={item.value === p.selected}
              onClick={() => {
                p.onSelect(item.value);
                setOpen(false);
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
