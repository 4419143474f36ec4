import { applyD1Migrations, env } from "cloudflare:test";

// Applies migrations/ (never a re-typed schema) to this test file's isolated D1.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
