// Migrations are append-only (docs/DESIGN.md): every committed migration's sha256 is pinned in
// migrations/CHECKSUMS; editing, removing or renaming one fails here, and so does a new file that
// is not pinned yet (`node scripts/migration-checksums.mjs --add`).
import { describe, expect, it } from "vitest";
import {
  checkMigrations,
  currentChecksums,
  MIGRATIONS_DIR,
  sha256,
} from "../../../scripts/lib/migration-checksums.mjs";

describe("migrations/CHECKSUMS", () => {
  it("pins every migration file, and every pinned file is unchanged", () => {
    expect(checkMigrations()).toEqual([]);
    expect(currentChecksums().size).toBeGreaterThanOrEqual(13);
  });

  it("catches an edited, a removed and an unpinned migration", () => {
    const now = currentChecksums(MIGRATIONS_DIR);
    const lines = [...now].map(([name, sum]) => `${sum}  ${name}`);
    // 0014 pinned as its first (7-column) text: the edit it later took is what this check stops.
    lines[lines.findIndex((l) => l.endsWith("0014_month_cover_index.sql"))] =
      `${sha256("CREATE INDEX IF NOT EXISTS idx_transactions_month_cover ON transactions (DateFileName);")}  0014_month_cover_index.sql`;
    lines.push(`${sha256("gone")}  0099_removed.sql`);
    const first = lines.shift(); // 0001 no longer pinned
    const problems = checkMigrations(MIGRATIONS_DIR, lines.join("\n"));
    expect(first).toMatch(/0001_init\.sql$/);
    expect(problems).toContain(
      "0014_month_cover_index.sql: changed after it was committed (migrations are append-only: add a new migration instead)",
    );
    expect(problems.some((p) => p.startsWith("0099_removed.sql: pinned in CHECKSUMS but missing"))).toBe(
      true,
    );
    expect(problems.some((p) => p.startsWith("0001_init.sql: not in migrations/CHECKSUMS"))).toBe(true);
    expect(problems).toHaveLength(3);
  });
});
