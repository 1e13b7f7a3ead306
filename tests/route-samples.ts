/**
 * The declared routes with their samples (shared/routes/*.route.ts: the default export and
 * `samples`), for the route-wide tests: a page added there is visited by every one of them.
 */
import type { NotFoundKind } from "../shared/loaders";
import type { RouteDeclaration, RouteSamples } from "../shared/routes/declare";

interface RouteModule {
  default: RouteDeclaration;
  samples: RouteSamples;
}

/** Every route file, by file name without ".route.ts". */
export const ROUTE_FILES: ReadonlyMap<string, RouteModule> = new Map(
  Object.entries(import.meta.glob<RouteModule>("../shared/routes/*.route.ts", { eager: true })).map(([file, module]) => [
    file.replace(/^.*\//, "").replace(/\.route\.ts$/, ""),
    module,
  ]),
);

export interface Sample {
  route: RouteDeclaration;
  url: string;
}

const all = [...ROUTE_FILES.values()];

/** The pages an anonymous visitor gets with 200, every declared route's. */
export const PAGE_SAMPLES: readonly Sample[] = all.flatMap(({ default: route, samples }) => samples.pages.map((url) => ({ route, url })));

/** The 404 answers, each with the kind of not-found page it shows. */
export const MISSING_SAMPLES: ReadonlyArray<Sample & { kind: NotFoundKind }> = all.flatMap(({ default: route, samples }) =>
  Object.entries(samples.missing ?? {}).flatMap(([kind, urls]) => (urls ?? []).map((url) => ({ route, url, kind: kind as NotFoundKind }))),
);

/** The anonymous redirects. */
export const REDIRECT_SAMPLES: readonly Sample[] = all.flatMap(({ default: route, samples }) => (samples.redirects ?? []).map((url) => ({ route, url })));

/** Every address a visitor can get HTML from without signing in (200 and 404), for the whole-site checks. */
export const HTML_SAMPLES: readonly string[] = [...PAGE_SAMPLES, ...MISSING_SAMPLES].map((s) => s.url);
