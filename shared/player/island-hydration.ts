/**
 * Lazy islands (the detail page's player, shared/player/PlayerIsland.tsx, and its 评分 panel,
 * shared/components/RatingIsland.tsx) keep their server HTML
 * until their chunk arrives. A context update that reaches such a boundary before then makes
 * React give up hydrating it: it deletes the server HTML and renders the island anew on the
 * client — for the player, a new <video> that restarts the stream the HTML had started. React
 * does this for every lane, transitions included (it first tries to hydrate the boundary at a
 * raised priority, which cannot work while the chunk is missing).
 *
 * So updates that the page makes on its own right after hydration (the library read from
 * browser storage, client/library-provider.tsx) wait here until every island of the first page
 * has hydrated. Nothing waits on pages without islands, or after a client-side navigation.
 */

let pending = 0;
let queued: (() => void)[] = [];

/** The document is still the server's (the entry marks <html data-hydrated> after hydrating). */
function beforeFirstHydration(): boolean {
  return typeof document !== "undefined" && document.documentElement.dataset.hydrated !== "true";
}

/**
 * Called by an island's module as it runs in the browser. Returns the function its content calls
 * once mounted (hydrated, or rendered on the client when its chunk failed); calling it again does
 * nothing. After the first hydration an island holds nothing up.
 */
export function holdUntilIslandHydrates(): () => void {
  if (!beforeFirstHydration()) return () => {};
  pending += 1;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    pending -= 1;
    if (pending === 0) {
      const run = queued;
      queued = [];
      for (const fn of run) fn();
    }
  };
}

/** Runs `fn` now, or once the islands that were waiting for their chunks have hydrated. */
export function afterIslandsHydrate(fn: () => void): void {
  if (pending === 0) fn();
  else queued.push(fn);
}
