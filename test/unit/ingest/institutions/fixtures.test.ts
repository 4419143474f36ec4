import { describe, expect, it } from "vitest";
import { nameForCard } from "../../../../src/domains/card-names/names";
import { parseAlert } from "../../../../src/ingest/institutions";
import { toCents } from "../../../../src/lib/money";
import { readTidings } from "../../../../scripts/lib/corpora.mjs";
import { referenceAlerts, referenceJson, TIDINGS_ABSENT } from "../../../fixtures/tidings";

// Tidings' alert fixtures (MIT), read from ../shared/reference/tidings (never committed here);
// skipped, in one line, where the folder is absent. Our own bodies: generators.ts, properties.test.ts.
const files = readTidings();
if (!files) console.warn(TIDINGS_ABSENT);

// The reference fills "name" from its card-holder config when the text has no greeting; the
// pipeline does the same from the stored mapping (src/domains/card-names/names.ts), given here the
// reference's own file.
const CARD_NAMES = files
  ? referenceJson<Record<string, Record<string, string>>>(files, "config/card_name_mappings.json")
  : {};

// The reference expects the tail "for the amount of $40.00 (CAD)" inside the company; the clean form is asserted.
const CLEANER_COMPANY: Record<string, string> = {
  edge_case_acceptance_wording_rbc_e: "PATRICK KELLY | test acceptance wording | CARDuCfy",
};

// Money received by e-transfer: the reference leaves these unparsed (its JSON lists only the
// institution). We record them as incoming e-transfers with the sender as company.
const RECEIVED: Record<string, { amount: number; company: string; name: string }> = {
  rbc505eee606: {
    amount: 12.5,
    company: "JONATHAN RICHARD SMITH | see you saturday! 🎉 | C1Ab3Kf9TrQ2",
    name: "Jennifer",
  },
  rbc707ggg808: {
    amount: 3250,
    company: "PATRICK GABRIEL DE VRIES | Misc transfer to Robin | H4NwTqBv7pK3",
    name: "Emilie",
  },
  yza567bcd890: { amount: 75, company: "ALEX THOMPSON | Coffee meetup | E7G2rstUVwXy", name: "Maria" },
};

const cases = referenceAlerts(files).map(({ label, body, expected }) => ({
  path: label,
  label,
  body,
  expected,
}));

const lookup = <T>(table: Record<string, T>, path: string): T | undefined =>
  Object.entries(table).find(([key]) => path.includes(key))?.[1];

describe.skipIf(!files)("reference alert fixtures (../shared/reference/tidings)", () => {
  it("are all present with their expectations", () => {
    expect(cases.length).toBe(23);
    for (const c of cases) expect(c.expected, c.label).toBeDefined();
  });

  it.each(cases)("$label", ({ path, body, expected }) => {
    const { institution, fields } = parseAlert(null, body);
    expect(institution).toBe(expected!.institution);

    const received = lookup(RECEIVED, path);
    if (received) {
      expect("transaction_type" in expected!).toBe(false);
      expect(fields).toEqual({
        ...received,
        amount: toCents(received.amount),
        transaction_type: "e-transfer",
      });
      return;
    }

    expect(fields.transaction_type).toBe(expected!.transaction_type);
    // Parsers give exact cents; the reference JSON speaks decimal amounts.
    expect(fields.amount).toBe(toCents(expected!.amount as number));
    expect(fields.company).toBe(lookup(CLEANER_COMPANY, path) ?? expected!.company);
    // What the pipeline stores: the greeting's name, else the card's mapped holder.
    const name = fields.name ?? nameForCard(CARD_NAMES, institution!, body);
    expect(name).toBe(expected!.name);
  });
});
