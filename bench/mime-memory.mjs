// bench/mime-memory: peak memory and time of reading issue 35's MIME bombs in Node, through the
// pipeline's own parse (src/ingest/mime.ts parseMime: the pre-scan of mime-limits.ts, then
// postal-mime) and, for comparison, through postal-mime alone as parseMime called it before the
// pre-scan. Each case runs in a fresh process; the peak is the process's max RSS above its
// baseline after the email was built. The hostile emails are generated (test/fixtures/hostile).
//   node bench/mime-memory.mjs
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
// Inside the project, so the bundle resolves postal-mime from its node_modules.
const dir = join(root, "node_modules/.cache/mime-bench");
mkdirSync(dir, { recursive: true });
const entry = join(dir, "entry.ts");
writeFileSync(
  entry,
  `import PostalMime from "postal-mime";
import { parseMime } from "${root}src/ingest/mime";
import { manyParts, nestedRfc822 } from "${root}test/fixtures/hostile/emails";
const [which, how] = process.argv.slice(2);
const raw = which === "parts" ? manyParts(50_000) : nestedRfc822(2_000);
const base = process.resourceUsage().maxRSS;
const t0 = performance.now();
let outcome = "";
if (how === "before") {
  const email = await PostalMime.parse(raw).catch((e) => ({ error: String(e) }));
  outcome = "error" in email ? email.error : "parsed, " + email.attachments.length + " attachments";
} else {
  const email = await parseMime(raw);
  outcome = email.refused ?? "parsed";
}
const ms = performance.now() - t0;
const peak = (process.resourceUsage().maxRSS - base) / 1024;
console.log(JSON.stringify({ bytes: raw.length, ms: Math.round(ms), peak_mb: Math.round(peak * 10) / 10, outcome }));
`,
);
const bundle = join(dir, "bench.mjs");
execFileSync(
  join(root, "node_modules/.bin/esbuild"),
  [entry, "--bundle", "--platform=node", "--format=esm", `--outfile=${bundle}`, "--log-level=warning"],
  { cwd: root },
);

for (const which of ["parts", "nested"]) {
  for (const how of ["before", "after"]) {
    const run = spawnSync(process.execPath, [bundle, which, how], { encoding: "utf8" });
    const line = run.stdout.trim() || run.stderr.trim().split("\n").at(-1);
    const name = which === "parts" ? "50,000 parts" : "2,000 nested message/rfc822";
    console.log(
      `${name.padEnd(28)} ${how === "before" ? "postal-mime alone" : "parseMime (pre-scan)"}: ${line}`,
    );
  }
}
