/**
 * The checks after a deploy: the home page, one master playlist, one media segment it names
 * (through its media playlist) and one cover answer 200. Each failure is named with its URL.
 */
import { parseMasterPlaylist, parseMediaPlaylist } from "../../shared/stream/hls-parse";
import { masterPlaylistPath, streamPath } from "../../shared/stream/contract";

export interface Check {
  name: string;
  url: string;
  ok: boolean;
  detail: string;
}

async function get(url: string): Promise<{ status: number; text: string } | { error: string }> {
  try {
    const response = await fetch(url, { redirect: "follow", signal: AbortSignal.timeout(30_000) });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function attempt<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch {
    return undefined;
  }
}

/** Runs the checks against `baseURL` for media number n (a title with a cover). */
export async function checkSite(baseURL: string, n: string): Promise<Check[]> {
  const checks: Check[] = [];
  const check = async (name: string, path: string): Promise<string | null> => {
    const url = new URL(path, baseURL).href;
    const r = await get(url);
    const ok = "status" in r && r.status === 200;
    checks.push({ name, url, ok, detail: "status" in r ? String(r.status) : r.error });
    return ok && "text" in r ? r.text : null;
  };
  await check("home", "/");
  const master = await check("master playlist", masterPlaylistPath(n));
  const variant = master ? attempt(() => parseMasterPlaylist(master).variants[0]) : undefined;
  const media = variant ? await check("media playlist", streamPath(n, variant.uri)) : null;
  const segment = media ? attempt(() => parseMediaPlaylist(media).segments[0]) : undefined;
  if (segment) await check("segment", streamPath(n, segment.uri));
  else checks.push({ name: "segment", url: new URL(masterPlaylistPath(n), baseURL).href, ok: false, detail: "no segment named by the playlists" });
  await check("cover", `/${n}.webp`);
  return checks;
}

export function checkReport(checks: readonly Check[]): string {
  return checks.map((c) => `  ${c.ok ? "ok  " : "FAIL"} ${c.name}: ${c.url} → ${c.detail}`).join("\n");
}
