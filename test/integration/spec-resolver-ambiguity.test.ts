// SPEC.md categorization, override resolver rule 2 (ambiguity rule): when two override keys collapse
// to the same normalized key but name different categories, that group is dropped and the lookup
// falls through — to the model, not to a full-confidence fuzzy pick of one side (issue 23 point 5).
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { ingestEmail } from "../../src/ingest";
import type { IngestSettings } from "../../src/ingest/types";
import { buildMime } from "../fixtures/emails/builders";
import { allTransactions, resetIngestTables, testDeps } from "../fixtures/emails/deps";
import { fakeModel, modelServerUrl } from "../helpers/fake-model-client";

const now = "2024-10-20T12:00:00Z";
const AI_ON: Partial<IngestSettings> = { aiCategorizationEnabled: true, aiExtractionEnabled: true };
const cibc = (company: string) =>
  buildMime({
    from: "alerts@cibc.com",
    body: `Dear Carlos,\n You've recently made a purchase with your CIBC card ending in 2210 for $6.00 at ${company}.\nCIBC`,
  });

async function override(company: string, category: string) {
  await env.DB.prepare(
    "INSERT INTO overrides (company, category, created_at, updated_at) VALUES (?, ?, ?, ?)",
  )
    .bind(company, category, now, now)
    .run();
}

describe.skipIf(!modelServerUrl())("SPEC resolver rule 2: the ambiguity rule holds in the fuzzy tier", () => {
  beforeEach(() => resetIngestTables());

  it("two rules for one merchant with different categories: the model decides, no fuzzy pick", async () => {
    // Both keys normalize to "blue bottle coffee" (the store number drops) but disagree.
    await override("Blue Bottle Coffee", "Coffee & Cafes");
    await override("BLUE BOTTLE COFFEE #12", "Restaurant/Dining");
    const m = await fakeModel();
    await m.script([{ kind: "tool", arguments: { category: "Groceries" } }], {
      "blue bottle cofee": [1, 0.1, 0],
      "blue bottle coffee": [1, 0.12, 0],
    });
    await ingestEmail(cibc("BLUE BOTTLE COFEE"), testDeps({ ai: m.provider, settings: AI_ON }));
    const [row] = await allTransactions();
    expect(row!.CategoryAudit).toMatchObject({ source: "ai" });
    expect(row!.CategoryAudit.source).not.toBe("override_fuzzy");
    expect(row!.Category).toBe("groceries");
    expect((await m.calls()).some((c) => c.path.endsWith("/chat/completions"))).toBe(true);
  });

  it("the same two rules agreeing on the category still give the fuzzy hit", async () => {
    await override("Blue Bottle Coffee", "Coffee & Cafes");
    await override("BLUE BOTTLE COFFEE #12", "Coffee & Cafes");
    const m = await fakeModel();
    await m.script([], { "blue bottle cofee": [1, 0.1, 0], "blue bottle coffee": [1, 0.12, 0] });
    await ingestEmail(cibc("BLUE BOTTLE COFEE"), testDeps({ ai: m.provider, settings: AI_ON }));
    const [row] = await allTransactions();
    expect(row!.CategoryAudit).toMatchObject({ source: "override_fuzzy", tier: 3 });
    expect(row!.Category).toBe("coffee & cafes");
  });

  it("two different keys the embedding cannot tell apart, naming different categories: the model decides", async () => {
    await override("Harbour Deli", "Restaurant/Dining");
    await override("Harbor Delhi", "Groceries");
    const m = await fakeModel();
    await m.script([{ kind: "tool", arguments: { category: "Restaurant/Dining" } }], {
      "harbr deli": [1, 0, 0],
      "harbour deli": [1, 0.05, 0],
      "harbor delhi": [1, 0.05, 0],
    });
    await ingestEmail(cibc("HARBR DELI"), testDeps({ ai: m.provider, settings: AI_ON }));
    expect((await allTransactions())[0]!.CategoryAudit).toMatchObject({ source: "ai" });
  });
});
