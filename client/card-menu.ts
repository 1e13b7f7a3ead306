/**
 * A video card's 更多 menu (docs/decisions/0097-card-menu.md), loaded at the first touch or click
 * (card-menu-opener.ts): 稍后再看 and, for a series, 追剧 — the same lists as the title page's buttons.
 * It changes the browser's lists as the LibraryProvider does (which re-reads them) and announces
 * the change, which client/lists-sync.ts sends to the account while signed in. Each item names the
 * title's state (移出稍后再看 once it is in); a choice closes the menu and a short confirmation shows.
 * Plain DOM: the menu lives beside the card's React content, never inside what React renders.
 */
import type { ListName, SeriesLists } from "../shared/series-lists";
import type { ListChange } from "./library-provider";

/**
 * The lists' functions, handed over by card-menu-opener.ts from the first JavaScript (where the
 * LibraryProvider has them): importing them here would split them out of the entry chunk into
 * separate files every page preloads, costing more of the JavaScript budget than this menu.
 */
export interface ListsAccess {
  read: () => SeriesLists;
  write: (lists: SeriesLists) => boolean;
  add: typeof import("../shared/series-lists").addToList;
  remove: typeof import("../shared/series-lists").removeFromList;
  has: typeof import("../shared/series-lists").inList;
  limit: number;
  changeEvent: string;
}

const CONFIRMATION_MS = 2500;

interface Choice {
  list: ListName;
  add: string;
  remove: string;
  state: string;
  added: string;
  removed: string;
}

const CHOICES: readonly Choice[] = [
  { list: "watchLater", add: "稍后再看", remove: "移出稍后再看", state: "已在稍后再看", added: "已加入稍后再看", removed: "已移出稍后再看" },
  { list: "follows", add: "追剧", remove: "取消追剧", state: "已追剧", added: "已加入追剧", removed: "已取消追剧" },
];

/** Adds the title to the list or takes it out, as LibraryProvider's toggleList; the message to show. */
function toggleCardList(access: ListsAccess, choice: Choice, id: string, episodes: number | undefined): string {
  const lists = access.read();
  const on = !access.has(lists, choice.list, id);
  const seen = on && choice.list === "follows" && episodes !== undefined ? { seenEpisodes: episodes } : {};
  const next = on ? access.add(lists, choice.list, { id, addedAt: Date.now(), ...seen }) : access.remove(lists, choice.list, id);
  if (!next) return `${choice.add}列表已满（最多${access.limit}部），请先移除一些`;
  access.write(next);
  window.dispatchEvent(new CustomEvent<ListChange>(access.changeEvent, { detail: { list: choice.list, id, on, ...seen } }));
  return on ? choice.added : choice.removed;
}

let current: { card: Element; close: (returnFocus: boolean) => void } | null = null;
/** A long press opened the menu: the tap's click and the browser's own menu are not the card's. */
let pressed = false;
let menus = 0;

const toast = document.createElement("p");
toast.className = "card-toast";
toast.setAttribute("role", "status");
document.body.appendChild(toast);
let toastTimer = 0;
function confirm(message: string): void {
  toast.textContent = message;
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => (toast.textContent = ""), CONFIRMATION_MS);
}

document.addEventListener("touchstart", () => (pressed = false), { capture: true, passive: true });
document.addEventListener(
  "contextmenu",
  (event) => {
    const onCard = (event.target as Element).closest?.(".video-card");
    if (onCard && (pressed || event.pointerType === "touch")) event.preventDefault();
  },
  true,
);
document.addEventListener(
  "click",
  (event) => {
    if (!pressed || !(event.target as Element).closest?.(".video-card")) return;
    pressed = false;
    event.preventDefault();
    event.stopPropagation();
  },
  true,
);

/** Opens the card's menu (or, clicked again, closes it). `byTouch`: a long press on the card. */
export function openCardMenu(card: Element, byTouch: boolean, access: ListsAccess): void {
  const button = card.querySelector<HTMLButtonElement>(".video-card-more");
  const id = button?.dataset.id;
  if (!button || !id) return;
  const again = current?.card === card;
  current?.close(false);
  if (again && !byTouch) return;
  if (byTouch) pressed = true;
  const episodes = button.dataset.episodes ? Number(button.dataset.episodes) : undefined;
  const title = card.querySelector(".video-card-title")?.textContent ?? "";

  const menu = document.createElement("div");
  menu.className = "video-card-menu";
  menu.id = `video-card-menu-${++menus}`;
  menu.setAttribute("role", "menu");
  menu.setAttribute("aria-label", `「${title}」的更多操作`);
  const lists = access.read();
  const items = CHOICES.filter((c) => c.list === "watchLater" || episodes !== undefined).map((choice) => {
    const on = access.has(lists, choice.list, id);
    const item = document.createElement("button");
    item.type = "button";
    item.tabIndex = -1;
    item.setAttribute("role", "menuitem");
    item.textContent = on ? choice.remove : choice.add;
    if (on) {
      const state = document.createElement("span");
      state.className = "video-card-menu-state";
      state.setAttribute("aria-hidden", "true");
      state.textContent = choice.state;
      item.appendChild(state);
    }
    item.addEventListener("click", () => {
      confirm(toggleCardList(access, choice, id, episodes));
      close(true);
    });
    return item;
  });
  for (const item of items) menu.appendChild(item);

  const outside = (event: PointerEvent) => {
    const target = event.target as Node;
    if (!menu.contains(target) && !button.contains(target)) close(false);
  };
  const close = (returnFocus: boolean) => {
    menu.remove();
    document.removeEventListener("pointerdown", outside, true);
    button.setAttribute("aria-expanded", "false");
    button.removeAttribute("aria-controls");
    if (current?.card === card) current = null;
    if (returnFocus) button.focus();
  };
  menu.addEventListener("keydown", (event) => {
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => {
      event.preventDefault();
      items[(to + items.length) % items.length].focus();
    };
    if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    } else if (event.key === "Tab") close(false);
    else if (event.key === "ArrowDown") move(at + 1);
    else if (event.key === "ArrowUp") move(at - 1);
    else if (event.key === "Home") move(0);
    else if (event.key === "End") move(items.length - 1);
  });
  document.addEventListener("pointerdown", outside, true);

  card.appendChild(menu);
  button.setAttribute("aria-expanded", "true");
  button.setAttribute("aria-controls", menu.id);
  current = { card, close };
  items[0].focus();
}
