import { applyD1Migrations, env } from "cloudflare:test";
import { d1CatalogueDb, importRows, type TitleRow } from "../../shared/catalogue/import-plan";

// Every worker test file starts from a migrated account database holding the catalogue file.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS ?? []);
await importRows(d1CatalogueDb(env.DB), JSON.parse(env.TEST_CATALOGUE_ROWS ?? "[]") as TitleRow[]);
