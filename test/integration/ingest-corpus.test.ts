import { describe, expect, it } from "vitest";
import { ingestEmail, type IngestOutcome } from "../../src/ingest";
import { toCents } from "../../src/lib/money";
import { tidings } from "../fixtures/alerts/corpora";
import { type CorpusItem, ownCorpus, referenceCorpus } from "../fixtures/emails/corpus";
import { allFailures, allTransactions, resetIngestTables, testDeps } from "../fixtures/emails/deps";
import { fakeModel, modelServerUrl } from "../helpers/fake-model-client";

async function counts() {
  return { tx: (await allTransactions()).length, pf: (await allFailures()).length };
}

/** Runs the corpus and checks SPEC's invariant for every email; returns the outcomes by name. */
async function runCorpus(items: CorpusItem[], deps: () => ReturnType<typeof testDeps>) {
  await resetIngestTables();
  const outcomes = new Map<string, IngestOutcome>();
  const problems: string[] = [];
  for (const item of items) {
    const before = await counts();
    let out: IngestOutcome;
    try {
      out = await ingestEmail(item.raw, deps());
    } catch (err) {
      problems.push(`${item.name}: threw ${String(err)}`);
      continue;
    }
    outcomes.set(item.name, out);
    const after = await counts();
    const delta = { tx: after.tx - before.tx, pf: after.pf - before.pf };
    const want =
      out.status === "created"
        ? { tx: 1, pf: 0 }
        : out.status === "quarantined"
          ? { tx: 0, pf: 1 }
          : { tx: 0, pf: 0 };
    if (delta.tx !== want.tx || delta.pf !== want.pf)
      problems.push(`${item.name}: ${out.status} but delta ${JSON.stringify(delta)}`);
    if (item.relevant === true && (out.status === "ignored" || out.status === "duplicate")) {
      problems.push(`${item.name}: relevant email ended ${out.status}`);
    }
    if (item.relevant === false && out.status !== "ignored")
      problems.push(`${item.name}: irrelevant email ended ${out.status}`);
  }
  return { outcomes, problems };
}

// Tidings' alerts (../shared/reference/tidings; skipped, in one line, where absent) and our own.
const files = tidings();
const reference = referenceCorpus(files);

describe("corpus invariant: every relevant email is one transaction or one quarantined row", () => {
  const corpus = [...reference, ...ownCorpus()];

  it("has a varied corpus", () => {
    expect(ownCorpus().length).toBeGreaterThanOrEqual(13);
  });

  it.skipIf(!files)("has Tidings' reference alerts (../shared/reference/tidings)", () => {
    expect(reference.length).toBeGreaterThanOrEqual(21);
  });

  it("AI off", async () => {
    const { outcomes, problems } = await runCorpus(corpus, () => testDeps());
    expect(problems).toEqual([]);
    // Reference alerts parse end to end into what their .json says.
    const mismatches: string[] = [];
    for (const item of reference) {
      const out = outcomes.get(item.name);
      const want = item.expected;
      if (!want) continue;
      // Money-received notices the reference never parsed carry no expected amount: either
      // outcome is fine, but a parse must name the right institution.
      if (want.amount === undefined) {
        if (out?.status === "created" && out.tx.Institution !== want.institution)
          mismatches.push(`${item.name}: institution`);
        continue;
      }
      if (out?.status !== "created") {
        mismatches.push(`${item.name}: ${out?.status}`);
        continue;
      }
      const tx = out.tx;
      if (
        tx.Institution !== want.institution ||
        tx.Amount !== toCents(want.amount as number) ||
        // The parser's SPEC type; a sent e-Transfer is stored with its direction (issue 34).
        (tx.TransactionType ?? "").replace(/^e-transfer-sent$/, "e-transfer") !== want.transaction_type
      ) {
        mismatches.push(`${item.name}: got ${tx.Institution}/${tx.Amount}/${tx.TransactionType}`);
      }
    }
    expect(mismatches).toEqual([]);
    // Own fixtures land where intended.
    expect(outcomes.get("html-only-mbna.eml")).toMatchObject({
      status: "created",
      tx: { Institution: "MBNA", Amount: 8745 },
    });
    expect(outcomes.get("multipart-qp-cibc.eml")).toMatchObject({
      status: "created",
      tx: { Amount: 6419, Company: "SAVE-ON-FOODS #2281" },
    });
    expect(outcomes.get("base64-pcfinancial.eml")).toMatchObject({
      status: "created",
      tx: { Amount: 102499, Company: "LOBLAWS 1012" },
    });
    if (files)
      expect(outcomes.get("e2e_test_email.eml")).toMatchObject({
        status: "created",
        tx: { Amount: 123, Company: "E2E TEST CAFE" },
      });
    expect(outcomes.get("truncated-rbc.eml")).toMatchObject({
      status: "quarantined",
      failure_stage: "extraction_empty",
    });
    expect(outcomes.get("unknown-bank-alert.eml")).toMatchObject({
      status: "quarantined",
      failure_stage: "no_parser_match",
    });
    expect(outcomes.get("generated/windows-1252-8bit")).toMatchObject({
      status: "created",
      tx: { Company: "CRÊPERIE ÉTÉ" },
    });
    expect(outcomes.get("generated/huge")).toMatchObject({ status: "created" });
    // Hand-forwarded alerts: the forwarded block's sender, subject and time, the outer recipient.
    expect(outcomes.get("forwarded-gmail-rbc.eml")).toMatchObject({
      status: "created",
      tx: {
        Institution: "RBC",
        Amount: 2375,
        Date: "10/15/2024 11:07 PDT",
        FromEmail: "notifications@rbc.com",
      },
    });
    expect(outcomes.get("forwarded-outlook-cibc.eml")).toMatchObject({
      status: "created",
      tx: { Institution: "CIBC", Amount: 11230, Date: "10/15/2024 15:42 PDT", Subject: "Transaction Alert" },
    });
    expect(outcomes.get("forwarded-apple-mbna.eml")).toMatchObject({
      status: "created",
      tx: {
        Institution: "MBNA",
        Amount: 8745,
        Date: "10/15/2024 13:05 PDT",
        ForwardedTo: "journal@example.com",
      },
    });
  });

  it.skipIf(!modelServerUrl())("AI on (fake model answering by default)", async () => {
    const m = await fakeModel();
    const { problems } = await runCorpus(corpus, () =>
      testDeps({ ai: m.provider, settings: { aiCategorizationEnabled: true, aiExtractionEnabled: true } }),
    );
    expect(problems).toEqual([]);
  });
});
