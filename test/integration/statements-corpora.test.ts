// The shared real-world corpora (../shared/corpora/peer-files and world2: statements from other
// projects' test suites and 15 banks in 10 countries, never committed here) read in-process by the
// file parser: every file exact or refused in words as its index.json says. A CSV whose header no
// word list names is read once the person confirms the mapping the index gives (the mapping form).
// Skipped with one clear line where the corpora are absent.
import { describe, expect, it } from "vitest";
import { detectKind, parseFile } from "../../src/domains/statements/files";
import type { CsvMapping } from "../../src/domains/statements/parsers/csv";
import { type CorpusCase, casesOf, judge, type Reading } from "../fixtures/statements/corpora";

// Lazy: only the files an index names are loaded.
const files = import.meta.glob(
  [
    "../../../shared/corpora/peer-files/**/*.{ofx,OFX,qfx,QFX,qif,QIF,csv,CSV,xml,pdf,PDF}",
    "../../../shared/corpora/world2/statements/**/*.{ofx,OFX,qfx,QFX,qif,QIF,csv,CSV,xml}",
  ],
  { query: "?url&inline", import: "default" },
) as Record<string, () => Promise<string>>;
const indexes = import.meta.glob("../../../shared/corpora/{peer-files,world2}/index.json", {
  import: "default",
  eager: true,
}) as Record<string, { statements: never[] } | undefined>;

const ROOT = "../../../shared/corpora";
const bytesOf = (url: string) =>
  Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
const peerIndex = indexes[`${ROOT}/peer-files/index.json`];
const world2Index = indexes[`${ROOT}/world2/index.json`];
const cases: CorpusCase[] = [
  ...(peerIndex ? casesOf("peer-files", peerIndex) : []),
  ...(world2Index ? casesOf("world2", world2Index) : []),
];

async function read(c: CorpusCase, bytes: Uint8Array): Promise<Reading & { mapped?: boolean }> {
  const kind = detectKind(bytes, c.file);
  if (!kind) return { ok: false, message: "not a statement file" };
  const rowsOf = (parts: Awaited<ReturnType<typeof parseFile>>) =>
    parts.flatMap((p) =>
      p.rows.map((r) => ({ date: r.date, cents: r.type === "withdrawal" ? -r.amount : r.amount })),
    );
  try {
    const parts = await parseFile(kind, bytes, 2025, {});
    const b = parts[0]?.balance;
    const first = {
      ok: true as const,
      rows: rowsOf(parts),
      balance: b && { ok: b.ok && parts.length === 1, opening: b.opening, closing: b.closing },
    };
    // The mapping form: a header no word list names (no rows yet), confirmed as the index says.
    if (c.mapping && parts[0]?.csv?.refused) {
      const mapped = await parseFile(kind, bytes, 2025, {
        csvMapping: c.mapping.mapping as unknown as CsvMapping,
      });
      return { ok: true, rows: rowsOf(mapped), mapped: true };
    }
    if (first.rows.length === 0)
      return { ok: false, message: parts[0]?.balance.warnings.join("; ") || "no rows" };
    return first;
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

describe.skipIf(cases.length === 0)("real-world statement corpora (../shared/corpora)", () => {
  it("every file is read exactly or refused in words, as its index says", async () => {
    const bad: string[] = [];
    const tally: Record<string, { exact: number; files: number; rows: number; of: number }> = {};
    const checks: string[] = [];
    for (const c of cases) {
      const load = files[`${ROOT}/${c.corpus}/${c.file}`];
      if (!load) {
        bad.push(`${c.corpus} ${c.id}: file absent`);
        continue;
      }
      const r = await read(c, bytesOf(await load()));
      const j = judge(c, r);
      const key = `${c.corpus} ${c.format}`;
      tally[key] ??= { exact: 0, files: 0, rows: 0, of: 0 };
      const t = tally[key];
      t.files++;
      t.rows += j.matched;
      t.of += c.refuse ? 0 : c.rows.length;
      if (c.format === "pdf" && r.ok) {
        const b = r.balance;
        const money = (n: number | null | undefined) => (n == null ? "?" : (n / 100).toFixed(2));
        checks.push(
          `  ${c.id}: ${r.rows.length} rows, ${j.verdict}; balance check ${b?.ok ? "ok" : "NOT ok"}, opening ${money(b?.opening)} -> closing ${money(b?.closing)}`,
        );
      }
      if (j.verdict === "exact" || j.verdict === "balance-confirmed" || j.verdict === "refused-ok") t.exact++;
      else
        bad.push(
          `${c.corpus} ${c.id}: ${j.verdict} (${j.matched}/${c.rows.length}, got ${j.got}) ${j.problems.slice(0, 3).join("; ")}`,
        );
      if (j.verdict === "refused-ok" && !r.ok) expect(r.message.length, c.id).toBeGreaterThan(10);
    }
    console.log(
      Object.entries(tally)
        .map(([k, t]) => `${k}: ${t.exact}/${t.files} files, ${t.rows}/${t.of} rows`)
        .join("\n"),
      `\nPDF balance checks:\n${checks.join("\n")}`,
    );
    expect(bad).toEqual(KNOWN_GAPS);
  }, 120_000);
});

if (cases.length === 0) {
  it.skip("real-world statement corpora: ../shared/corpora/peer-files and world2 are absent here (skipped)", () => {});
}

/** Files not yet read as their index says (each named in the branch's report). */
const KNOWN_GAPS: string[] = [];
