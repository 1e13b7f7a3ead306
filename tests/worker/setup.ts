import { applyD1Migrations, env } from "cloudflare:test";
import { d1CatalogueDb, importRows } from "../../scripts/catalogue/import-plan";

// Every worker test file starts from a migrated account database holding the catalogue file.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS ?? []);
await importRows(d1CatalogueDb(env.DB), env.TEST_CATALOGUE_ROWS ?? []);
