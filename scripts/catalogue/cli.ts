/**
 * `npm run catalogue -- <command>`: the operators' catalogue tool.
 *
 *   check [file]   validate catalogue/titles.json (or file); exit 1 and list every problem
 *   add <file|folder> [--title … --category … --series <id> --episode N --cover image --remote]
 *                  probe, pack, publish and enter real media (scripts/catalogue/add.ts)
 *   import [--remote] [--file F] [--prefer-file]   load the catalogue into D1 (local by default; scripts/catalogue/import.ts),
 *                  keeping titles edited in the 管理后台 and reporting conflicts (docs/decisions/0074-live-catalogue.md)
 *   export [--remote] [--file F] [--dry-run]   write the live catalogue back to the file (scripts/catalogue/export.ts)
 */
import path from "node:path";
import { addCommand } from "./add";
import { CATALOGUE_FILE, checkCatalogueFile, checkReport } from "./check";
import { exportCatalogue } from "./export";
import { importCatalogue } from "./import";

const USAGE =
  "usage: npm run catalogue -- check [file] | add <file|folder> [options] | import [--remote [--config wrangler.json]] [--file F] [--prefer-file] | export [--remote [--config wrangler.json]] [--file F] [--dry-run]";

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "check": {
      const file = rest[0] ? path.resolve(rest[0]) : CATALOGUE_FILE;
      const result = checkCatalogueFile(file);
      (result.ok ? console.log : console.error)(checkReport(result, file));
      return result.ok ? 0 : 1;
    }
    case "add": {
      return addCommand(rest);
    }
    case "import":
    case "export": {
      const fileAt = rest.indexOf("--file");
      const configAt = rest.indexOf("--config");
      if ((fileAt >= 0 && !rest[fileAt + 1]) || (configAt >= 0 && !rest[configAt + 1])) {
        console.error(`--file and --config need a file name\n${USAGE}`);
        return 2;
      }
      const options = {
        remote: rest.includes("--remote"),
        file: fileAt >= 0 ? path.resolve(rest[fileAt + 1]) : CATALOGUE_FILE,
        wranglerConfig: configAt >= 0 ? path.resolve(rest[configAt + 1]) : undefined,
      };
      try {
        if (command === "export") await exportCatalogue({ ...options, dryRun: rest.includes("--dry-run") });
        else await importCatalogue({ ...options, preferFile: rest.includes("--prefer-file") });
        return 0;
      } catch (error) {
        console.error(error instanceof Error ? error.message : error);
        return 1;
      }
    }
    default:
      console.error(command ? `unknown command "${command}"\n${USAGE}` : USAGE);
      return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
