// The peer corpus through the parsers alone (fast; the HTTP walk is test/integration/statements-peers.test.ts).
import { describe, expect, it } from "vitest";
import { detectKind, parseFile } from "../../../../src/domains/statements/files";
import { expectedRows, peerFiles, rowKeys } from "../../../fixtures/statements/peers";

const signed = (r: { date: string; amount: number; type: string }) => ({
  date: r.date,
  amount_cents: r.type === "withdrawal" ? -r.amount : r.amount,
});

if (peerFiles("peers").length === 0)
  it.skip("peer corpus: ../shared/corpora/project-peers/statements is absent here (skipped)", () => {});

describe.each(["peers", "made"] as const)("%s corpus, parsers only", (which) => {
  for (const f of peerFiles(which)) {
    it(f.name, async () => {
      const kind = detectKind(f.bytes, f.name);
      const read = async () => {
        if (!kind) throw new Error("not a statement file");
        const parts = await parseFile(kind, f.bytes, 2025, {
          csvMapping: (f.expected.mapping as never) ?? null,
        });
        if (parts[0]?.csv?.refused) throw new Error(parts[0].csv.refused);
        return parts;
      };
      if (f.expected.refused) {
        await expect(read()).rejects.toThrow(/\w+ \w+ \w+/);
        return;
      }
      const parts = await read();
      const got = parts.flatMap((p) => p.rows.map(signed));
      expect(rowKeys(got)).toEqual(rowKeys(expectedRows(f.expected, got)));
      const warnings = parts.flatMap((p) => p.balance.warnings).join("\n");
      for (const r of f.expected.refused_rows ?? [])
        expect(warnings, f.name).toContain(`${r.peer_amount} ${r.reason}`);
    });
  }
});
