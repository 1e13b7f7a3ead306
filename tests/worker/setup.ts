import { applyD1Migrations, env } from "cloudflare:test";

// Every worker test file starts from a migrated, empty account database.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS ?? []);
