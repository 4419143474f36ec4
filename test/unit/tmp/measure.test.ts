import { readFileSync, existsSync, writeFileSync } from "node:fs";
import { it } from "vitest";
import { detectKind, parseFile } from "../../../src/domains/statements/files";
import { casesOf, judge, type CorpusCase } from "../../fixtures/statements/corpora";

const ROOT = "/work/shared/corpora";
it("measure", async () => {
  const all: CorpusCase[] = [
    ...casesOf("peer-files", JSON.parse(readFileSync(`${ROOT}/peer-files/index.json`, "utf8"))),
    ...casesOf("world2", JSON.parse(readFileSync(`${ROOT}/world2/index.json`, "utf8"))),
  ];
  const out: string[] = [];
  const tally: Record<string, Record<string, number>> = {};
  const rowsT: Record<string, [number, number]> = {};
  for (const c of all) {
    const path = `${ROOT}/${c.corpus}/${c.file}`;
    if (!existsSync(path)) { out.push(`ABSENT ${c.id}`); continue; }
    const bytes = new Uint8Array(readFileSync(path));
    let reading;
    let mapped = "";
    try {
      const kind = detectKind(bytes, c.file);
      if (!kind) throw new Error("not a statement file");
      let parts = await parseFile(kind, bytes, 2025, {});
      let rows = parts.flatMap((p) => p.rows.map((r) => ({ date: r.date, cents: r.type === "withdrawal" ? -r.amount : r.amount })));
      if (c.mapping && judge(c, { ok: true, rows }).verdict !== "exact") {
        mapped = parts[0]?.csv?.refused ? " (form→mapped)" : " (wrong→mapped)";
        parts = await parseFile(kind, bytes, 2025, { csvMapping: c.mapping.mapping as never });
        rows = parts.flatMap((p) => p.rows.map((r) => ({ date: r.date, cents: r.type === "withdrawal" ? -r.amount : r.amount })));
      }
      reading = rows.length === 0 && parts[0]?.csv?.refused ? { ok: false as const, message: `mapping form: ${parts[0].csv.refused}` } : { ok: true as const, rows };
      if (rows.length === 0 && !parts[0]?.csv) reading = { ok: false as const, message: `empty 200 ${parts[0]?.balance.warnings.join(";")}` };
    } catch (e) {
      reading = { ok: false as const, message: (e as Error).message };
    }
    const j = judge(c, reading);
    const key = `${c.corpus} ${c.format}`;
    tally[key] ??= {};
    tally[key]![j.verdict] = (tally[key]![j.verdict] ?? 0) + 1;
    rowsT[key] ??= [0, 0];
    rowsT[key]![0] += j.matched; rowsT[key]![1] += c.refuse ? 0 : c.rows.length;
    out.push(`${j.verdict.padEnd(13)} ${c.corpus} ${c.id} exp ${c.rows.length} got ${j.got} matched ${j.matched}${mapped} | ${j.problems.slice(0, 4).join("; ")}`);
  }
  out.push("", ...Object.entries(tally).map(([k, v]) => `${k}: ${JSON.stringify(v)} rows ${rowsT[k]![0]}/${rowsT[k]![1]}`));
  writeFileSync(process.env.MEASURE_OUT ?? "/tmp/stmts-measure.txt", out.join("\n"));
}, 300_000);
