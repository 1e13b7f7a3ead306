import type { SuggestResponse } from "../search/query";

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { signal, headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`搜索失败（${res.status}）`);
  return await res.json();
}

/** Suggestions for the header box (cached per page view as well as at the edge). */
export function fetchSuggestions(q: string, signal?: AbortSignal): Promise<SuggestResponse> {
  return getJson<SuggestResponse>(`/api/search/suggest?q=${encodeURIComponent(q)}`, signal);
}
