// bench/tax-export: peak memory of streaming a tax pack zip with many receipts.
// Bundles the real zip writer (src/domains/tax/zip.ts, the module the export route runs) with
// esbuild, feeds it a year of N receipt rows (default 1,000 receipts of 400 KB, i.e. ~400 MB of
// evidence) whose bodies are produced chunk by chunk like R2 object streams, and drains the zip
// into a sink that counts bytes. Prints the zip size, the time, and the peak RSS / heap +
// ArrayBuffer growth over the baseline. The zip is never held whole: the peak stays flat in N.
//   node bench/tax-export.mjs            (BENCH_RECEIPTS=3000 BENCH_RECEIPT_KB=400 to vary)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { cloudflareStub, measureZip, randomBody } from "./lib/zip-memory.mjs";

const N = Number(process.env.BENCH_RECEIPTS ?? 1000);
const KB = Number(process.env.BENCH_RECEIPT_KB ?? 400);
const CHUNK = 64 * 1024;
const root = decodeURIComponent(new URL("..", import.meta.url).pathname);

const dir = mkdtempSync(join(tmpdir(), "fj-bench-tax-"));
const entry = join(dir, "entry.ts");
writeFileSync(
  entry,
  `export { writeTaxZip } from ${JSON.stringify(join(root, "src/domains/tax/export-steps.ts"))};
export { packFiles } from ${JSON.stringify(join(root, "src/domains/tax/zip.ts"))};
export { buildLines } from ${JSON.stringify(join(root, "src/domains/tax/rules.ts"))};
export { packagedMapping } from ${JSON.stringify(join(root, "src/domains/tax/mapping.ts"))};`,
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
const { writeTaxZip, packFiles, buildLines, packagedMapping } = await import(pathToFileURL(out).href);
rmSync(dir, { recursive: true, force: true });

const mapping = packagedMapping();
const cats = ["Health Care", "Charitable Giving", "Childcare", "Education", "Therapy"];
const rows = [];
const receipts = new Map();
for (let i = 0; i < N; i++) {
  const day = `2025.${String(1 + (i % 12)).padStart(2, "0")}.${String(1 + (i % 28)).padStart(2, "0")}`;
  const txId = `tx${i}`;
  rows.push({
    txId,
    forwardedTo: "me@example.com",
    dateFileName: `${day}_10.00_${i}.eml`,
    amount: 1000 + i,
    company: `Clinic ${i % 50}`,
    category: cats[i % cats.length],
    statementSource: null,
    fileName: "emails/x.eml",
    receipts: 1,
  });
  receipts.set(txId, [
    { id: `att_${i.toString(16).padStart(16, "0")}`, r2Key: `k${i}`, contentType: "image/jpeg" },
  ]);
}
const lines = buildLines(mapping, rows, new Map());

await measureZip(
  (sink) =>
    writeTaxZip(
      {},
      () => new Date(),
      {
        year: 2025,
        pack: packFiles(lines, receipts),
        src: { openReceipt: async () => randomBody(KB * 1024, CHUNK), emailText: async () => "alert" },
      },
      sink,
    ),
  (zipMb, seconds) => `tax-export: ${N} receipts x ${KB} KB -> zip ${zipMb} MB in ${seconds} s`,
);
