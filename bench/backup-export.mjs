// bench/backup-export: peak memory of streaming the full backup (format 2: rows AND files).
// Bundles the real export (src/domains/data/export-steps.ts, what GET /api/v1/data/export runs) with
// esbuild and runs it against a D1 stand-in over node:sqlite (migrations/ applied) and an R2
// stand-in whose objects are produced chunk by chunk like R2 object streams. The journal holds N
// receipts (default 1,000 of 400 KB: ~400 MB of files), N transactions with their raw emails, and
// the zip is drained into a sink that only counts bytes. Prints the zip size, the time, the peak
// RSS / heap + ArrayBuffer growth over the baseline: it stays flat in N (one batch of at most 2,000
// rows or one chunk of one file at a time), and the D1 round trips (a batch is one).
//   node bench/backup-export.mjs          (BENCH_RECEIPTS=3000 BENCH_RECEIPT_KB=400 to vary)
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { cloudflareStub, measureZip, randomBody } from "./lib/zip-memory.mjs";

const N = Number(process.env.BENCH_RECEIPTS ?? 1000);
const KB = Number(process.env.BENCH_RECEIPT_KB ?? 400);
const CHUNK = 64 * 1024;
const root = decodeURIComponent(new URL("..", import.meta.url).pathname);

const dir = mkdtempSync(join(tmpdir(), "fj-bench-backup-"));
const entry = join(dir, "entry.ts");
writeFileSync(
  entry,
  `export { writeBackup } from ${JSON.stringify(join(root, "src/domains/data/export-steps.ts"))};`,
);
const out = join(dir, "bundle.mjs");
await build({
  entryPoints: [entry],
  bundle: true,
  format: "esm",
  platform: "node",
  outfile: out,
  logLevel: "error",
  plugins: [cloudflareStub],
});
const { writeBackup } = await import(pathToFileURL(out).href);
rmSync(dir, { recursive: true, force: true });

// D1 stand-in: the calls drizzle's D1 driver makes (prepare/bind/all/raw/run/first, batch).
const sqlite = new DatabaseSync(":memory:");
for (const f of readdirSync(join(root, "migrations"))
  .filter((f) => f.endsWith(".sql"))
  .sort())
  sqlite.exec(readFileSync(join(root, "migrations", f), "utf8"));
// D1 round trips: a statement run alone is one, a batch is one (printed with the result).
let trips = 0;
const counted =
  (f) =>
  async (...a) => {
    trips++;
    return f(...a);
  };
function statement(sql, params = []) {
  const st = () => sqlite.prepare(sql);
  const all = async () => ({ results: st().all(...params), success: true, meta: {} });
  return {
    bind: (...p) => statement(sql, p),
    _all: all,
    all: counted(all),
    raw: counted(async () => {
      const s = st();
      s.setReturnArrays?.(true);
      return s.all(...params).map((r) => (Array.isArray(r) ? r : Object.values(r)));
    }),
    run: counted(async () => {
      st().run(...params);
      return { success: true, meta: {} };
    }),
    first: counted(async () => st().get(...params) ?? null),
  };
}
const DB = {
  prepare: (sql) => statement(sql),
  batch: counted(async (list) => Promise.all(list.map((s) => s._all()))),
};

const now = "2025-06-10T12:00:00.000Z";
const insTx = sqlite.prepare(
  "INSERT INTO transactions (ForwardedTo, DateFileName, Amount, Company, Category, FileName, Body, Ignored, CreatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)",
);
const insAtt = sqlite.prepare(
  "INSERT INTO attachments (id, original_filename, content_type, size_bytes, sha256, kind, r2_key, tx_forwarded_to, tx_date_file_name, created_at, updated_at) VALUES (?, ?, 'image/jpeg', ?, ?, 'receipt', ?, 'me@example.com', ?, ?, ?)",
);
sqlite.exec("BEGIN");
for (let i = 0; i < N; i++) {
  const hex = i.toString(16).padStart(16, "0");
  const dfn = `2025.${String(1 + (i % 12)).padStart(2, "0")}.01_10.00_${hex}.eml`;
  insTx.run(
    "me@example.com",
    dfn,
    1000 + i,
    `Shop ${i % 50}`,
    "groceries",
    `emails/2025/01/${hex}.eml`,
    "You spent $10.00 at Shop.",
    now,
  );
  const sha = hex.repeat(4);
  insAtt.run(
    `att_${hex}`,
    `receipt-${i}.jpg`,
    KB * 1024,
    sha,
    `attachments/2025-06/${sha}.jpg`,
    dfn,
    now,
    now,
  );
}
sqlite.exec("COMMIT");

const FILES = {
  get: async (key) => ({ body: randomBody(key.startsWith("emails/") ? 4096 : KB * 1024, CHUNK) }),
};

const bytes = await measureZip(
  (sink) => writeBackup({ env: { DB, FILES }, clock: () => new Date(now) }, sink),
  (zipMb, seconds) =>
    `backup-export: ${N} receipts x ${KB} KB + ${N} transactions and raw emails -> zip ${zipMb} MB in ${seconds} s`,
);
console.log(`  D1 round trips: ${trips} (a batch is one)`);
if (bytes < N * KB * 1024) throw new Error("the zip is smaller than its files: something was left out");
