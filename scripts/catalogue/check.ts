/**
 * Reads and validates a catalogue file (catalogue/titles.json by default): every problem with
 * the entry's id, the field and what is wrong (shared/catalogue/schema.ts holds the rules).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { formatProblem, validateCatalogue, type CatalogueResult, type TitleEntry } from "../../shared/catalogue/schema.ts";

export const CATALOGUE_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../catalogue/titles.json");

/** Validates `file`; a file that cannot be read or is not JSON is one problem of "(file)". */
export function checkCatalogueFile(file: string = CATALOGUE_FILE): CatalogueResult {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return { ok: false, problems: [{ entry: "(file)", field: "", message: `无法读取：${(error as Error).message}` }] };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [{ entry: "(file)", field: "", message: `不是有效的 JSON：${(error as Error).message}` }] };
  }
  return validateCatalogue(data);
}

/** The report `npm run catalogue -- check` prints. */
export function checkReport(result: CatalogueResult, file: string): string {
  const name = path.relative(process.cwd(), file) || file;
  if (result.ok) {
    const episodes = result.titles.reduce((sum, t) => sum + (t.episodes?.length ?? 1), 0);
    return `${name}: ${result.titles.length} titles, ${episodes} episodes or films — no problems`;
  }
  const lines = result.problems.map((p) => "  " + formatProblem(p));
  return [`${name}: ${result.problems.length} problem${result.problems.length === 1 ? "" : "s"}`, ...lines].join("\n");
}

/** The validated entries of a catalogue file; a problem throws with every problem listed. */
export function readCatalogue(file: string = CATALOGUE_FILE): TitleEntry[] {
  const result = checkCatalogueFile(file);
  if (!result.ok) throw new Error(checkReport(result, file));
  return result.titles;
}
