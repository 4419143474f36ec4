import { readFileSync } from "node:fs";
import { it } from "vitest";
import { parseFile, detectKind } from "../../../src/domains/statements/files";
it("d", async () => {
  const f = process.env.F!;
  const b = new Uint8Array(readFileSync(f));
  const k = detectKind(b, f)!;
  const p = await parseFile(k, b, 2025, {});
  for (const s of p) console.log(JSON.stringify({ ...s, rows: s.rows.slice(0, 6) }, null, 1).slice(0, 3000));
});
