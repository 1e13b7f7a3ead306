import { useEffect, useState } from "react";
import type { LibraryCard } from "../catalogue/card";

const NONE: ReadonlyMap<string, LibraryCard> = new Map();

/**
 * The cards of titles kept in the visitor's library (favourites, history), asked of the worker
 * (GET /api/titles) once the ids are known: null until they arrive. Ids the catalogue no longer
 * has are simply missing from the map.
 */
export function useTitleCards(ids: readonly string[], enabled: boolean): ReadonlyMap<string, LibraryCard> | null {
  const key = [...new Set(ids)].sort().join(",");
  const [cards, setCards] = useState<{ key: string; map: ReadonlyMap<string, LibraryCard> } | null>(null);
  useEffect(() => {
    if (!enabled || !key) return;
    const controller = new AbortController();
    fetch(`/api/titles?ids=${encodeURIComponent(key)}`, { signal: controller.signal, headers: { Accept: "application/json" } })
      .then((res): Promise<LibraryCard[]> => (res.ok ? res.json() : Promise.reject(new Error(`作品信息加载失败（${res.status}）`))))
      .then((list) => setCards({ key, map: new Map(list.map((c) => [c.id, c])) }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.error(error);
      });
    return () => controller.abort();
  }, [key, enabled]);
  if (enabled && !key) return NONE;
  return cards && cards.key === key ? cards.map : null;
}
