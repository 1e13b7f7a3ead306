import type { RootData } from "../shared/root-data";

/**
 * The browser's root loader runs only on revalidation (sign-in, sign-out):
 * configuration stays as hydrated, the visitor is asked of the worker.
 */
export async function clientRootLoader(): Promise<RootData> {
  const hydrated = window.__staticRouterHydrationData?.loaderData?.root as RootData | undefined;
  const config = hydrated?.config ?? { siteName: "影视站", origin: location.origin, businessContact: "", filingNumber: "", cultureLicence: "" };
  try {
    const res = await fetch("/api/auth/user", { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (!res.ok) return { config, user: null };
    const body = (await res.json()) as { user: RootData["user"] };
    return { config, user: body.user ?? null };
  } catch {
    return { config, user: hydrated?.user ?? null };
  }
}
