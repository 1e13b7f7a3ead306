import { useEffect, useState } from "react";
import type { LibraryCard } from "../catalogue/card";
import { titleIdPages } from "../catalogue/title-ids";

const NONE: ReadonlyMap<string, LibraryCard> = new Map();

async function fetchCards(ids: readonly string[], signal: AbortSignal): Promise<LibraryCard[]> {
  const res = await fetch(`/api/titles?ids=${encodeURIComponent(ids.join(","))}`, { signal, headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`作品信息加载失败（${res.status}）`);
  return await res.json<LibraryCard[]>();
}

/**
 * The cards of titles kept in the visitor's library (favourites, history), asked of the worker
 * (GET /api/titles) once the ids are known: null until they arrive. Ids the catalogue no longer
 * has are simply missing from the map. A library longer than the worker takes at once
 * (MAX_TITLE_IDS) is asked for in pages, together.
 */
export function useTitleCards(ids: readonly string[], enabled: boolean): ReadonlyMap<string, LibraryCard> | null {
  const pages = titleIdPages(ids);
  const key = pages.map((page) => page.join(",")).join("|");
  const [cards, setCards] = useState<{ key: string; map: ReadonlyMap<string, LibraryCard> } | null>(null);
  useEffect(() => {
    if (!enabled || !key) return;
    const controller = new AbortController();
    Promise.all(key.split("|").map((page) => fetchCards(page.split(","), controller.signal)))
      .then((lists) => setCards({ key, map: new Map(lists.flat().map((c) => [c.id, c])) }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.error(error);
      });
    return () => controller.abort();
  }, [key, enabled]);
  if (enabled && !key) return NONE;
  return cards && cards.key === key ? cards.map : null;
}
