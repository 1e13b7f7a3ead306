import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GENERATED_DIR, generatedFiles } from "../../scripts/search-keys";

describe("generated search keys", () => {
  it("the committed files are what the generator writes now (run `npm run search-keys` after editing the catalogue)", () => {
    for (const [name, content] of Object.entries(generatedFiles())) {
      expect(fs.readFileSync(path.join(GENERATED_DIR, name), "utf8"), name).toBe(content);
    }
  });
});
