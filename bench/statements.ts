/**
 * Statement parse + reconcile against N stored transactions (default 100,000; BENCH_COUNT
 * overrides) in local D1, inside workerd: a 5-page, 120-row statement PDF (target < 300 ms), a
 * 1,000-row CSV and a 40-page, 1,000-row PDF (targets < 1 s each to review). Prints the first
 * (cold) run, then the best and the median of the later runs for parse and for reconcile, each in
 * wall time and in CPU time of the workerd processes (bench/lib/cpu-probe.mjs: the machine's other
 * load inflates wall time, not CPU time). pdf.js is loaded once before the PDFs are timed and its
 * load reported on its own (the first PDF of an isolate pays it; under vitest it includes Vite's
 * transform of the 1.6 MB module, which a deployed Worker does not pay).
 *   npm run bench:statements
 */
import { env } from "cloudflare:test";
import { getResolvedPDFJS } from "unpdf";
import { beforeAll, expect, inject, it } from "vitest";
import "./lib/cpu-probe-context";
import { jobCtx } from "../src/domains/activity/journal";
import { parseFile } from "../src/domains/statements/files";
import { parseStatementText } from "../src/domains/statements/parsers";
import { readPdfText } from "../src/domains/statements/parsers/pdf-text";
import { buildRows } from "../src/domains/statements/reconcile";
import type { Env } from "../src/env";
import { fixedClock } from "../src/lib/clock";
import { prng } from "../scripts/lib/prng.mjs";
import { type OwnRow, mapleStatement } from "../test/fixtures/statements/banks";

const fmt = (c: number) =>
  (c / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const TYPES = ["purchase", "purchase", "purchase", "withdrawal", "preauth", "e-transfer", "deposit"];

async function seedStored(count: number, rand: () => number) {
  const day0 = Date.UTC(2023, 0, 1);
  for (let i = 0; i < count; i += 500) {
    const values: string[] = [];
    for (let j = i; j < Math.min(count, i + 500); j++) {
      const d = new Date(day0 + Math.floor(rand() * 3 * 365) * 86_400_000)
        .toISOString()
        .slice(0, 10)
        .replaceAll("-", ".");
      const amount = 100 + Math.floor(rand() * 50_000);
      values.push(
        `('bench@example.com', '${d}_12.00_b${j}.eml', 'h${j}', 'default', 'Bench', ${amount}, 'Shop ${j % 300}', '${TYPES[j % TYPES.length]}', 'groceries')`,
      );
    }
    await env.DB.prepare(
      `INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, UserId, Institution, Amount, Company, TransactionType, Category) VALUES ${values.join(",")}`,
    ).run();
  }
}

function statementPdf(rand: () => number, n = 120, perPage = 24) {
  let bal = 500_000;
  const rows: OwnRow[] = [];
  let tin = 0;
  let tout = 0;
  for (let i = 0; i < n; i++) {
    const day = 16 + Math.floor((i * 30) / n);
    const date = day <= 31 ? `Dec ${day}` : `Jan ${String(day - 31).padStart(2, "0")}`;
    const amount = 100 + Math.floor(rand() * 20_000);
    const out = i % 5 !== 0;
    bal += out ? -amount : amount;
    if (out) tout += amount;
    else tin += amount;
    const lines = i % 7 === 0 ? [`POS PURCHASE ${i}`, `MERCHANT NUMBER ${i}`] : [`SHOP ${i % 300}`];
    rows.push({
      date: i % 3 === 0 ? date : null,
      lines,
      out: out ? fmt(amount) : undefined,
      in: out ? undefined : fmt(amount),
      balance: fmt(bal),
    });
  }
  return mapleStatement(rows, {
    perPage,
    opening: fmt(500_000),
    closing: fmt(bal),
    totalsIn: fmt(tin),
    totalsOut: fmt(tout),
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A 1,000-row CSV export over a month: date, description, signed amount, running balance. */
function statementCsv(rand: () => number, n = 1000) {
  let bal = 500_000;
  const lines = ["Date,Description,Amount,Balance"];
  for (let i = 0; i < n; i++) {
    const d = new Date(Date.UTC(2024, 11, 16) + Math.floor((i * 30) / n) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const cents = (i % 5 === 0 ? 1 : -1) * (100 + Math.floor(rand() * 20_000));
    bal += cents;
    lines.push(`${d},SHOP ${i % 300},${(cents / 100).toFixed(2)},${(bal / 100).toFixed(2)}`);
  }
  return new TextEncoder().encode(`${lines.join("\n")}\n`);
}

const ctx = () => jobCtx(env as unknown as Env, fixedClock("2025-02-01T12:00:00Z"), "bench.statements").ctx;
let count = 0;
beforeAll(async () => {
  count = Number((env as unknown as { BENCH_COUNT: string }).BENCH_COUNT);
  await seedStored(count, prng(20261122));
}, 600_000);

/** CPU ms spent so far by the workerd processes (null where /proc is not readable). */
async function cpuNow(): Promise<number | null> {
  const res = await fetch(inject("cpuProbe"));
  return ((await res.json()) as { cpu_ms: number | null }).cpu_ms;
}

/** Wall and CPU time of one step. */
async function measured<T>(step: () => Promise<T>): Promise<{ out: T; wall: number; cpu: number | null }> {
  const c0 = await cpuNow();
  const t0 = performance.now();
  const out = await step();
  const wall = performance.now() - t0;
  const c1 = await cpuNow();
  return { out, wall, cpu: c0 === null || c1 === null ? null : c1 - c0 };
}

const ms = (x: number | null) => (x === null ? "n/a" : `${x.toFixed(0)} ms`);
const best = (xs: number[]) => Math.min(...xs);
/** "first …; best … / median … (cpu best … / median …)" over the runs after the first. */
function summary(wall: number[], cpu: (number | null)[]) {
  const later = wall.slice(1);
  const laterCpu = cpu.slice(1).filter((c): c is number => c !== null);
  const cpuPart = laterCpu.length ? `; cpu best ${ms(best(laterCpu))}, median ${ms(median(laterCpu))}` : "";
  const firstCpu = cpu[0] === null || cpu[0] === undefined ? "" : ` (cpu ${ms(cpu[0])})`;
  return `first ${ms(wall[0]!)}${firstCpu}, best ${ms(best(later))}, median ${ms(median(later))}${cpuPart}`;
}

/** Times parse and reconcile of one file `runs` times: first (cold), then best and median of the rest. */
async function timeReview(
  label: string,
  kind: "pdf" | "csv",
  bytes: Uint8Array,
  rows: number,
  target: number,
  runs = 7,
) {
  const parse: number[] = [];
  const parseCpu: (number | null)[] = [];
  const reconcile: number[] = [];
  const reconcileCpu: (number | null)[] = [];
  const review: number[] = [];
  const reviewCpu: (number | null)[] = [];
  for (let run = 0; run < runs; run++) {
    const p = await measured(() => parseFile(kind, bytes, 2025));
    const statement = p.out[0]!;
    expect(statement.rows).toHaveLength(rows);
    expect(statement.balance.ok).toBe(true);
    const r = await measured(() =>
      buildRows(ctx(), { statementId: "stmt_bench", parsed: statement, fileKind: kind }),
    );
    expect(r.out).toHaveLength(rows);
    parse.push(p.wall);
    parseCpu.push(p.cpu);
    reconcile.push(r.wall);
    reconcileCpu.push(r.cpu);
    review.push(p.wall + r.wall);
    reviewCpu.push(p.cpu === null || r.cpu === null ? null : p.cpu + r.cpu);
  }
  console.log(
    `statements: ${label}: ${count} stored, ${runs} runs\n` +
      `  parse     ${summary(parse, parseCpu)}\n` +
      `  reconcile ${summary(reconcile, reconcileCpu)}\n` +
      `  review    ${summary(review, reviewCpu)} (target < ${target} ms)`,
  );
}

it("a 1,000-row CSV", async () => {
  await timeReview("1,000-row CSV", "csv", statementCsv(prng(7)), 1000, 1000);
});

it("a 40-page, 1,000-row PDF", async () => {
  const load = await measured(() => getResolvedPDFJS());
  console.log(
    `statements: pdf.js module load (once per isolate): ${ms(load.wall)} wall, cpu ${ms(load.cpu)}`,
  );
  const pdf = statementPdf(prng(8), 1000, 25);
  await timeReview("40-page PDF (1,000 rows)", "pdf", pdf, 1000, 1000);
});

it("parse + reconcile of a 5-page, 120-row statement", async () => {
  const pdf = statementPdf(prng(20261123));
  const parse: number[] = [];
  const reconcile: number[] = [];
  for (let run = 0; run < 8; run++) {
    const t0 = performance.now();
    const out = parseStatementText(await readPdfText(pdf), 2025);
    const t1 = performance.now();
    if (!out.ok) throw new Error(out.message);
    expect(out.statement.rows).toHaveLength(120);
    expect(out.statement.balance.ok).toBe(true);
    await buildRows(ctx(), { statementId: "stmt_bench", parsed: out.statement, fileKind: "pdf" });
    const t2 = performance.now();
    parse.push(t1 - t0);
    reconcile.push(t2 - t1);
  }
  const later = (xs: number[]) => median(xs.slice(1));
  console.log(
    `statements: ${count} stored; parse first ${parse[0]!.toFixed(0)} ms, median ${later(parse).toFixed(0)} ms; ` +
      `reconcile first ${reconcile[0]!.toFixed(0)} ms, median ${later(reconcile).toFixed(0)} ms; ` +
      `total median ${(later(parse) + later(reconcile)).toFixed(0)} ms (target < 300 ms)`,
  );
});
