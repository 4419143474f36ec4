// Migrations are append-only: migrations/CHECKSUMS pins the sha256 of every committed migration
// (`sha256sum` format). `checkMigrations()` lists every difference; `node scripts/migration-checksums.mjs`
// prints them, and with `--add` appends the lines of new files (never rewrites an existing line).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./dashboard.mjs";

export const MIGRATIONS_DIR = join(root, "migrations");
export const CHECKSUMS_FILE = join(MIGRATIONS_DIR, "CHECKSUMS");

export const sha256 = (text) => createHash("sha256").update(text).digest("hex");

/** name → sha256 of each `NNNN_name.sql` in `dir`. */
export function currentChecksums(dir = MIGRATIONS_DIR) {
  const out = new Map();
  for (const name of readdirSync(dir)
    .filter((n) => /^\d{4}_.+\.sql$/.test(n))
    .sort()) {
    out.set(name, sha256(readFileSync(join(dir, name))));
  }
  return out;
}

/** name → sha256 pinned in a CHECKSUMS text. */
export function parseChecksums(text) {
  const out = new Map();
  for (const line of text.split("\n")) {
    const m = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line.trim());
    if (m) out.set(m[2], m[1]);
  }
  return out;
}

/** Every way `dir` disagrees with its pinned list (empty when they agree). */
export function checkMigrations(
  dir = MIGRATIONS_DIR,
  listText = readFileSync(join(dir, "CHECKSUMS"), "utf8"),
) {
  const pinned = parseChecksums(listText);
  const now = currentChecksums(dir);
  const problems = [];
  for (const [name, sum] of pinned) {
    if (!now.has(name))
      problems.push(
        `${name}: pinned in CHECKSUMS but missing (a committed migration was removed or renamed)`,
      );
    else if (now.get(name) !== sum)
      problems.push(
        `${name}: changed after it was committed (migrations are append-only: add a new migration instead)`,
      );
  }
  for (const name of now.keys()) {
    if (!pinned.has(name))
      problems.push(
        `${name}: not in migrations/CHECKSUMS (run \`node scripts/migration-checksums.mjs --add\`)`,
      );
  }
  return problems;
}

/** Appends the lines of files not yet pinned; returns their names. */
export function addNewChecksums(dir = MIGRATIONS_DIR) {
  const file = join(dir, "CHECKSUMS");
  const text = readFileSync(file, "utf8");
  const pinned = parseChecksums(text);
  const added = [...currentChecksums(dir)].filter(([name]) => !pinned.has(name));
  const lines = added.map(([name, sum]) => `${sum}  ${name}\n`).join("");
  writeFileSync(file, `${text.endsWith("\n") || text === "" ? text : `${text}\n`}${lines}`);
  return added.map(([name]) => name);
}
