// node scripts/migration-checksums.mjs [--add]: checks migrations/ against migrations/CHECKSUMS
// (exit 1 on any difference); --add first appends the checksums of new migration files.
import { addNewChecksums, checkMigrations } from "./lib/migration-checksums.mjs";

if (process.argv.includes("--add")) for (const name of addNewChecksums()) console.log(`pinned ${name}`);
const problems = checkMigrations();
for (const p of problems) console.error(p);
if (problems.length === 0) console.log("migrations/ agrees with migrations/CHECKSUMS");
process.exit(problems.length ? 1 : 0);
