/**
 * Opens a video card's 更多 menu (稍后再看, 追剧; docs/decisions/0097-card-menu.md): a click on the
 * card's 更多 button, or a touch resting on the card for LONG_PRESS_MS. Only these listeners are in
 * the first JavaScript; the menu (card-menu.ts) loads at the first touch or click.
 */
import { addToList, inList, LIST_LIMIT, removeFromList } from "../shared/series-lists";
import type { ListsAccess } from "./card-menu";
import { LIST_CHANGE, readStoredLists, writeStoredLists } from "./library-provider";

const LONG_PRESS_MS = 500;

const access: ListsAccess = {
  read: readStoredLists,
  write: writeStoredLists,
  add: addToList,
  remove: removeFromList,
  has: inList,
  limit: LIST_LIMIT,
  changeEvent: LIST_CHANGE,
};

const loadMenu = () => import("./card-menu");

export function installCardMenu(doc: Document): void {
  let timer = 0;
  const cancel = () => clearTimeout(timer);
  doc.addEventListener(
    "touchstart",
    (event) => {
      const card = (event.target as Element).closest?.(".video-card");
      cancel();
      if (!card || event.touches.length > 1) return;
      void loadMenu(); // fetched while the finger rests
      timer = window.setTimeout(() => void loadMenu().then((menu) => menu.openCardMenu(card, true, access)), LONG_PRESS_MS);
    },
    { passive: true },
  );
  for (const type of ["touchend", "touchmove", "touchcancel"]) doc.addEventListener(type, cancel, { passive: true });
  doc.addEventListener("click", (event) => {
    const button = (event.target as Element).closest?.(".video-card-more");
    const card = button?.closest(".video-card");
    if (card) void loadMenu().then((menu) => menu.openCardMenu(card, false, access));
  });
}
