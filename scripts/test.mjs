// npm test: vitest runs both projects of vitest.config.ts in one run (unit in Node, integration
// inside workerd) with one merged coverage report, then the dashboard's browser tests
// (scripts/e2e.mjs, which builds the dashboard). Arguments go to vitest, and then only vitest runs
// (for example `npm test -- test/unit` or `npm test -- --project unit`); `npm run test:e2e` runs the
// browser tests alone.
//
// What the tests need is installed here, before vitest starts (the tests themselves install
// nothing): Dovecot for the IMAP files (scripts/dovecot.sh install) and, for a full run, Debian's
// Chromium (scripts/chromium.sh). Both are no-ops when already present. A failed install does not
// stop the run: the files that need the missing server fail and say how to get it.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib/dashboard.mjs";

const args = process.argv.slice(2);
const results = join(root, "test-results");
const vitestJson = join(results, "vitest.json");
mkdirSync(results, { recursive: true });
rmSync(vitestJson, { force: true });

function prepare(script, args, what) {
  const r = spawnSync("bash", [join(root, "scripts", script), ...args], { cwd: root, stdio: "inherit" });
  if (r.status !== 0)
    console.error(`npm test: could not install ${what} (the tests that need it will say so)`);
}
const unitOnly = args.join(" ").match(/--project[ =]unit\b/) && !args.includes("integration");
if (!unitOnly) prepare("dovecot.sh", ["install"], "Dovecot");
if (!args.length) prepare("chromium.sh", [], "Chromium");

const vitest = join(root, "node_modules", ".bin", "vitest");
const unit = spawnSync(
  vitest,
  ["run", "--coverage", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`, ...args],
  { cwd: root, stdio: "inherit" },
);
if (args.length) process.exit(unit.status ?? 1);

// The browser tests, streamed as they run and kept for the closing count.
const e2e = await new Promise((resolve) => {
  const child = spawn(process.execPath, [join(root, "scripts", "e2e.mjs")], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
    process.stdout.write(chunk);
  });
  child.on("close", (status) => resolve({ status, stdout }));
});

// One closing line for the whole run: vitest's tests plus the browser steps.
const count = (text) =>
  text
    .match(/^(\d+) passed, (\d+) failed$/m)
    ?.slice(1)
    .map(Number);
const e2eCounts = count(e2e.stdout ?? "") ?? [0, 1];
let unitCounts = [0, unit.status === 0 ? 0 : 1];
if (existsSync(vitestJson)) {
  const j = JSON.parse(readFileSync(vitestJson, "utf8"));
  const failedTests = j.numFailedTests ?? 0;
  // A non-zero exit with no failed test is still a failure (for example the coverage threshold).
  unitCounts = [j.numPassedTests ?? 0, failedTests + (unit.status !== 0 && failedTests === 0 ? 1 : 0)];
}
console.log(
  `\nvitest: ${unitCounts[0]} passed, ${unitCounts[1]} failed; browser: ${e2eCounts[0]} passed, ${e2eCounts[1]} failed`,
);
console.log(`all: ${unitCounts[0] + e2eCounts[0]} passed, ${unitCounts[1] + e2eCounts[1]} failed`);
process.exit(unit.status === 0 && e2e.status === 0 ? 0 : 1);
