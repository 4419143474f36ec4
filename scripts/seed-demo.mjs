// npm run seed:demo [-- --persist-to DIR] [--remote] [--seed N] [--today YYYY-MM-DD]:
// applies migrations, then fills the state with the demo household (replacing earlier demo rows).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoSql } from "./lib/demo-data.mjs";
import { applyMigrations, d1Target, runWrangler, stateArgs } from "./lib/wrangler.mjs";

const { persistTo, remote, rest } = stateArgs(process.argv.slice(2));
const opt = (name) => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : undefined;
};
const seed = Number(opt("--seed") ?? 20261121);
const today = opt("--today") ? new Date(`${opt("--today")}T20:00:00Z`) : new Date();

applyMigrations({ persistTo, remote });
const { sql, count } = demoSql({ seed, today });
const dir = mkdtempSync(join(tmpdir(), "fj-demo-"));
const file = join(dir, "demo.sql");
writeFileSync(file, sql);
try {
  runWrangler(["d1", "execute", "DB", ...d1Target({ persistTo, remote }), "--file", file], { capture: true });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`demo data: ${count} transactions, overrides and a ${today.getUTCFullYear()} budget written`);
