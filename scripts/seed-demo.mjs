// npm run seed:demo [-- --persist-to DIR] [--seed N] [--today YYYY-MM-DD]:
// applies migrations, starts the Worker on that state and fills the (empty) journal with the demo
// household through the real doors: generated bank alerts through the ingest pipeline and a card
// statement through upload → reconcile → import, at a fixed seed and clock (scripts/lib/demo-data.mjs).
import { seedDemoState } from "./lib/demo-seed.mjs";
import { stateArgs } from "./lib/wrangler.mjs";

const { persistTo, remote, rest } = stateArgs(process.argv.slice(2));
const opt = (name) => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : undefined;
};
if (remote) {
  console.error(
    "seed:demo fills a local state through the Worker's own pipeline; for a deployed demo, seed a local " +
      "state, then restore its export (Backup page or POST /api/v1/data/import) into the deployment",
  );
  process.exit(2);
}
const today = opt("--today") ?? null;
if (today && !/^\d{4}-\d{2}-\d{2}$/.test(today)) {
  console.error("--today takes a date as YYYY-MM-DD");
  process.exit(2);
}
const seed = opt("--seed") !== undefined ? Number(opt("--seed")) : null;
try {
  const out = await seedDemoState({ persistTo, today, seed, log: (l) => console.log(l) });
  console.log(
    `demo data: ${out.emails} alerts through the pipeline (${out.quarantined} quarantined), ` +
      `${out.statement_imported} rows from the card statement, ${out.transactions} transactions, ` +
      `${out.overrides} merchant rules${out.budget_year ? ` and a ${out.budget_year} budget` : ""} in ${(out.ms / 1000).toFixed(1)} s`,
  );
} catch (err) {
  console.error(String(err?.message ?? err));
  process.exit(1);
}
