import { applyD1Migrations, env } from "cloudflare:test";
import { importRows, type TitleRow } from "../../shared/catalogue/import-plan";
import { d1CatalogueDb } from "../../worker/catalogue/import-db";

// Every worker test file starts from a migrated account database holding the catalogue file.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS ?? []);
await importRows(d1CatalogueDb(env.DB), JSON.parse(env.TEST_CATALOGUE_ROWS ?? "[]") as TitleRow[]);
