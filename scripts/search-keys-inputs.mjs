/**
 * What the generated search keys depend on (the catalogue, the folding rules, the
 * generator and its libraries' versions), hashed: `vite build` runs the generator
 * only when this hash differs from the one written in the generated file.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const INPUTS = [
  "catalogue/titles.json",
  "shared/search/normalise.ts",
  "scripts/search-keys.ts",
  "shared/catalogue/pinyin.ts",
  "scripts/search-keys-inputs.mjs",
  "node_modules/pinyin-pro/package.json",
  "node_modules/opencc-js/package.json",
];

/**
 * @param {string} root the repository root
 * @returns {string}
 */
export function searchKeysInputsHash(root) {
  const hash = createHash("sha256");
  for (const file of INPUTS)
    hash
      .update(file)
      .update("\0")
      .update(fs.readFileSync(path.join(root, file)))
      .update("\0");
  return hash.digest("hex").slice(0, 16);
}

/**
 * The hash recorded in a generated file ("// inputs: <hash>"), or null.
 * @param {string} file
 * @returns {string | null}
 */
export function recordedHash(file) {
  try {
    return /\/\/ inputs: ([0-9a-f]+)/.exec(fs.readFileSync(file, "utf8"))?.[1] ?? null;
  } catch {
    return null;
  }
}

/** @type {string[]} */
export const GENERATED_FILES = ["shared/search/generated/pinyin-keys.ts", "shared/search/generated/t2s-table.ts"];

/**
 * Whether every generated file records the current inputs.
 * @param {string} root the repository root
 * @returns {boolean}
 */
export function searchKeysCurrent(root) {
  const hash = searchKeysInputsHash(root);
  return GENERATED_FILES.every((file) => recordedHash(path.join(root, file)) === hash);
}
