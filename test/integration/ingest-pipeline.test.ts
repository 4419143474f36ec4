import { env } from "cloudflare:test";
import { getDb } from "../../src/db";
import { beforeEach, describe, expect, it } from "vitest";
import { invalidateResolverCache } from "../../src/categorize";
import type { Env } from "../../src/env";
import { ingestEmail } from "../../src/ingest";
import { routeEmail } from "../../src/ingest/sources/email-routing";
import { fixedClock } from "../../src/lib/clock";
import { replaceBlocked } from "../../src/domains/blocked-companies/service";
import { buildMime } from "../fixtures/emails/builders";
import {
  allFailures,
  allTransactions,
  recordingNotifier,
  resetIngestTables,
  testDeps,
} from "../fixtures/emails/deps";

const CIBC_BODY = (company = "GRANITE INSURANCE #204", amount = "$1,687.00") => `Dear Carlos,
      You've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for ${amount} at ${company}.
You can sign on to your CIBC Online or Mobile Banking to view more details about this transaction.Sincerely,
CIBC`;

const RBC_WITHDRAWAL = `Hello,
 A withdrawal of $23,417.68  was debited from your bank account Daily Savings. The full details of this transaction are below:
Withdrawal Amount:
 $23,417.68
 RBC Royal Bank | Royal Bank of Canada`;

const cibc = (o: Partial<Parameters<typeof buildMime>[0]> = {}) =>
  buildMime({ from: "CIBC <mailbox.noreply@cibc.com>", to: "me@example.com", body: CIBC_BODY(), ...o });

const now = "2024-10-20T12:00:00Z";

async function putOverride(company: string, category: string) {
  await env.DB.prepare(
    "INSERT INTO overrides (company, category, created_at, updated_at) VALUES (?, ?, ?, ?)",
  )
    .bind(company, category, now, now)
    .run();
}

describe("ingestEmail: the deterministic path", () => {
  beforeEach(() => resetIngestTables());

  it("creates a transaction with SPEC's stored fields and keeps the raw in R2", async () => {
    const notify = recordingNotifier();
    const raw = cibc({ date: "Tue, 15 Oct 2024 14:30:00 -0700" });
    const out = await ingestEmail(raw, testDeps({ notify }));
    expect(out.status).toBe("created");
    const [row] = await allTransactions();
    expect(row).toMatchObject({
      ForwardedTo: "me@example.com",
      UserId: "default",
      Institution: "CIBC",
      Amount: 1687,
      AmountCents: 168700,
      Company: "GRANITE INSURANCE #204",
      TransactionType: "purchase",
      Name: "Carlos",
      Category: "miscellaneous",
      Date: "10/15/2024 14:30 PDT",
      FromEmail: "mailbox.noreply@cibc.com",
      FromName: "CIBC",
      ToEmail: "me@example.com",
      Subject: "Transaction Alert",
      Ignored: 0,
      DeletedAt: null,
      // The built-in reading keeps the currency printed beside the amount (a bare $ names none).
      ExtractionAudit: { method: "parser", model: "CIBC", currency: null, currency_printed: "$" },
    });
    expect(row!.Body).toContain("GRANITE INSURANCE #204");
    expect(row!.DateFileName).toMatch(/^2024\.10\.15_14\.30_[0-9a-f]{12}\.eml$/);
    expect(row!.FileName).toMatch(/^emails\/2024\/10\/[0-9a-f]{16}\.eml$/);
    expect(row!.TransactionHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.CategoryAudit).toEqual({
      source: "fallback",
      matched_rule: null,
      confidence: null,
      tier: null,
      model: null,
      fallback_reason: "no_ai_client",
      reviewed_at: null,
      previous_category: null,
      previous_source: null,
      schema_version: 1,
    });
    // No budget target for the category: the optional fields are null, never missing (the API requires them).
    expect(row!.TransactionContext).toEqual({
      category_month_total: 1687,
      merchant_month_count: 1,
      category_budget_target: null,
      category_budget_pct: null,
    });
    // Stored in cents, and marked so (snapshots written before hold decimals, unmarked).
    expect(row!.TransactionContextStored).toMatchObject({ money: "cents", category_month_total: 168_700 });
    const stored = await env.FILES.get(row!.FileName);
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(raw);
    expect(notify.sent).toHaveLength(1);
    expect(notify.sent[0]!.text).toContain("GRANITE INSURANCE #204");
  });

  it("a second delivery is a duplicate: one row, one notification", async () => {
    const notify = recordingNotifier();
    const raw = cibc();
    expect((await ingestEmail(raw, testDeps({ notify }))).status).toBe("created");
    expect((await ingestEmail(raw, testDeps({ notify }))).status).toBe("duplicate");
    expect(await allTransactions()).toHaveLength(1);
    expect(notify.sent).toHaveLength(1);
    expect(await allFailures()).toHaveLength(0);
  });

  it("concurrent deliveries of one email write exactly one row", async () => {
    const raw = cibc();
    const outs = await Promise.all(Array.from({ length: 6 }, () => ingestEmail(raw, testDeps())));
    expect(outs.filter((o) => o.status === "created")).toHaveLength(1);
    expect(outs.filter((o) => o.status === "duplicate")).toHaveLength(5);
    expect(await allTransactions()).toHaveLength(1);
  });

  it("the same alert re-sent with other headers is a duplicate (the hash is over the fields)", async () => {
    expect((await ingestEmail(cibc({ messageId: "<a@x>" }), testDeps())).status).toBe("created");
    expect((await ingestEmail(cibc({ messageId: "<b@x>", subject: "Fwd: alert" }), testDeps())).status).toBe(
      "duplicate",
    );
  });

  it("CRLF mail: no trailing CR in the company, and the hash equals the LF copy's", async () => {
    const lf = await ingestEmail(cibc({ messageId: "<lf@x>" }), testDeps());
    const crlf = await ingestEmail(cibc({ messageId: "<crlf@x>", crlf: true }), testDeps());
    expect(lf.status).toBe("created");
    expect(crlf.status).toBe("duplicate");
    const [row] = await allTransactions();
    expect(row!.Company).toBe("GRANITE INSURANCE #204");
    expect(row!.Company).not.toMatch(/\r/);
  });

  it("a withdrawal without a company is a valid transaction", async () => {
    const out = await ingestEmail(
      buildMime({ from: "RBC <notifications@rbc.com>", to: "me@example.com", body: RBC_WITHDRAWAL }),
      testDeps(),
    );
    expect(out.status).toBe("created");
    const [row] = await allTransactions();
    expect(row).toMatchObject({
      Institution: "RBC",
      Amount: 23417.68,
      Company: null,
      TransactionType: "withdrawal",
    });
    expect(row!.TransactionContext).toMatchObject({ merchant_month_count: 0 });
  });

  it("two different transactions in the same minute both survive a DateFileName collision", async () => {
    const out1 = await ingestEmail(cibc(), testDeps());
    expect(out1.status).toBe("created");
    const first = (await allTransactions())[0]!;
    // Occupy the DateFileName the next email would get, under a different hash.
    const raw2 = cibc({ body: CIBC_BODY("OTHER SHOP", "$5.00") });
    const out2 = await ingestEmail(raw2, testDeps());
    expect(out2.status).toBe("created");
    await env.DB.prepare("DELETE FROM transactions WHERE DateFileName != ?").bind(first.DateFileName).run();
    await env.DB.prepare("UPDATE transactions SET DateFileName = ? WHERE DateFileName = ?")
      .bind((out2 as any).tx.DateFileName, first.DateFileName)
      .run();
    const again = await ingestEmail(raw2, testDeps());
    expect(again.status).toBe("created");
    expect((again as any).tx.DateFileName).toMatch(/_2\.eml$/);
    expect(await allTransactions()).toHaveLength(2);
  });

  it("the recipient maps to a UserId; unmapped recipients get the configured default", async () => {
    await env.DB.prepare("INSERT INTO user_mappings (ForwardedTo, UserId) VALUES (?, ?)")
      .bind("Me@Example.com", "carlos")
      .run();
    await ingestEmail(cibc(), testDeps({ settings: { userId: "fallback-user" } }));
    await ingestEmail(
      cibc({ to: "other@example.com", forwardedTo: "other@example.com" }),
      testDeps({ settings: { userId: "fallback-user" } }),
    );
    const rows = await allTransactions();
    expect(rows.map((r) => [r.ForwardedTo, r.UserId]).sort()).toEqual([
      ["me@example.com", "carlos"],
      ["other@example.com", "fallback-user"],
    ]);
  });

  it("dates follow the configured timezone", async () => {
    await ingestEmail(
      cibc({ date: "Tue, 15 Oct 2024 23:30:00 PDT" }),
      testDeps({ settings: { timezone: "America/New_York" } }),
    );
    const [row] = await allTransactions();
    expect(row!.Date).toBe("10/16/2024 02:30 EDT");
    expect(row!.DateFileName.startsWith("2024.10.16_02.30_")).toBe(true);
  });
});

describe("overrides apply with AI off (reference shortfall)", () => {
  beforeEach(() => resetIngestTables());

  it("tier 0 exact, tier 1 normalized, tier 2 alias; stamped in CategoryAudit", async () => {
    await putOverride("Granite Insurance", "Insurance");
    await putOverride("Costco Wholesale", "Groceries");
    await env.DB.prepare(
      "INSERT INTO merchant_aliases (raw_name, canonical, created_at, updated_at) VALUES (?, ?, ?, ?)",
    )
      .bind("COSTCO GAS", "Costco Wholesale", now, now)
      .run();
    await ingestEmail(cibc(), testDeps());
    await ingestEmail(cibc({ body: CIBC_BODY("COSTCO GAS #123", "$50.00") }), testDeps());
    const rows = await allTransactions();
    const granite = rows.find((r) => r.Company === "GRANITE INSURANCE #204")!;
    expect(granite.Category).toBe("insurance");
    expect(granite.CategoryAudit).toMatchObject({
      source: "override_normalized",
      matched_rule: "Granite Insurance",
      confidence: 1,
      tier: 1,
    });
    const costco = rows.find((r) => r.Company === "COSTCO GAS #123")!;
    expect(costco.Category).toBe("groceries");
    expect(costco.CategoryAudit).toMatchObject({ source: "override_alias", tier: 2 });
  });

  it("ambiguous normalized keys fall through to Miscellaneous", async () => {
    await putOverride("Granite Insurance #1", "Insurance");
    await putOverride("Granite Insurance #2", "Home Maintenance");
    await ingestEmail(cibc(), testDeps());
    const [row] = await allTransactions();
    expect(row!.Category).toBe("miscellaneous");
  });

  it("an override change seen through the lists' config_versions invalidates the 5-minute cache", async () => {
    await ingestEmail(cibc({ body: CIBC_BODY("SHOP A", "$1.00") }), testDeps());
    await putOverride("SHOP B", "Hobbies");
    await ingestEmail(cibc({ body: CIBC_BODY("SHOP B", "$2.00") }), testDeps());
    // A row written without a version bump: the cached (empty) index is still used...
    expect((await allTransactions()).find((r) => r.Company === "SHOP B")!.Category).toBe("miscellaneous");
    // ...until the overrides list's version moves (as every write through db/lists.ts does, in any isolate).
    await env.DB.prepare(
      "INSERT INTO config_versions (name, version, updated_at) VALUES ('overrides', 1, ?) ON CONFLICT(name) DO UPDATE SET version = version + 1",
    )
      .bind(now)
      .run();
    await ingestEmail(cibc({ body: CIBC_BODY("SHOP B", "$3.00") }), testDeps());
    expect((await allTransactions()).find((r) => r.Amount === 3)!.Category).toBe("hobbies");
  });
});

describe("context and notifications", () => {
  beforeEach(() => resetIngestTables());

  it("context carries month-to-date spend, visits and the budget target", async () => {
    await putOverride("FRESH MART", "Groceries");
    await env.DB.prepare(
      "INSERT INTO budget_config (user_id, year, kind, data, updated_at) VALUES (?, ?, 'targets', ?, ?)",
    )
      .bind(
        "default",
        2024,
        JSON.stringify({
          spending_ceiling: 0,
          categories: { Groceries: { target: 2400, monthly_amount: 200 } },
        }),
        now,
      )
      .run();
    const notify = recordingNotifier();
    await ingestEmail(cibc({ body: CIBC_BODY("FRESH MART", "$50.00") }), testDeps({ notify }));
    await ingestEmail(
      cibc({ body: CIBC_BODY("FRESH MART", "$100.00"), date: "Wed, 16 Oct 2024 10:00:00 -0700" }),
      testDeps({ notify }),
    );
    const rows = await allTransactions();
    expect(rows[1]!.TransactionContext).toEqual({
      category_month_total: 150,
      merchant_month_count: 2,
      category_budget_target: 200,
      category_budget_pct: 75,
    });
    expect(notify.sent[1]!.text).toContain("(75% of $200.00 budget)");
    expect(notify.sent[1]!.text).toContain("2nd visit to FRESH MART");
  });

  it("a broken context read gives no context and the row is still written", async () => {
    await env.DB.prepare("DROP TABLE budget_config").run();
    try {
      expect((await ingestEmail(cibc(), testDeps())).status).toBe("created");
      expect((await allTransactions())[0]!.TransactionContext).toBeNull();
    } finally {
      await env.DB.prepare(
        `CREATE TABLE budget_config (user_id TEXT NOT NULL, year INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
         version INTEGER NOT NULL DEFAULT 1, updated_at TEXT NOT NULL, PRIMARY KEY (user_id, year, kind))`,
      ).run();
    }
  });

  it("blocked companies are not notified; provider failures never lose the transaction", async () => {
    const notify = recordingNotifier();
    const granite = { key: "granite insurance #204", company: "granite insurance #204", created_at: now };
    await replaceBlocked(getDb(env.DB), [granite]);
    const { loadIngestSettings } = await import("../../src/ingest/settings");
    const settings = await loadIngestSettings(env as any);
    expect(settings.blockedCompanies).toEqual(["granite insurance #204"]);
    await ingestEmail(
      cibc(),
      testDeps({ notify, settings: { blockedCompanies: settings.blockedCompanies } }),
    );
    expect(notify.sent).toHaveLength(0);
    notify.fail = true;
    expect(
      (await ingestEmail(cibc({ body: CIBC_BODY("ELSEWHERE", "$3.00") }), testDeps({ notify }))).status,
    ).toBe("created");
    expect(await allTransactions()).toHaveLength(2);
  });
});

describe("quarantine with AI off", () => {
  beforeEach(() => resetIngestTables());

  const unknownAlert = (id = "<u1@x>") =>
    buildMime({
      from: "Alerts <alerts@tangerine.example>",
      subject: "Transaction alert",
      messageId: id,
      body: "A purchase of $23.75 was charged to your account at CORNER BAKERY.",
    });

  it("an unknown sender with an amount and alert words is quarantined as no_parser_match", async () => {
    const notify = recordingNotifier();
    const out = await ingestEmail(unknownAlert(), testDeps({ notify }));
    expect(out).toMatchObject({ status: "quarantined", failure_stage: "no_parser_match" });
    const [f] = await allFailures();
    expect(f).toMatchObject({
      id: (out as any).id,
      status: "quarantined",
      failure_stage: "no_parser_match",
      from_email: "alerts@tangerine.example",
      subject: "Transaction alert",
      forwarded_to: "alerts@example.com",
    });
    expect(f!.body).toContain("CORNER BAKERY");
    expect(await env.FILES.head(f!.raw_key)).not.toBeNull();
    expect(notify.sent.filter((m) => m.kind === "quarantine")).toHaveLength(1);
    expect(await allTransactions()).toHaveLength(0);
  });

  it("a detected institution whose parser finds nothing is extraction_empty", async () => {
    const out = await ingestEmail(
      buildMime({
        from: "CIBC <mailbox.noreply@cibc.com>",
        body: "Your CIBC statement is ready to view online.",
      }),
      testDeps(),
    );
    expect(out).toMatchObject({
      status: "quarantined",
      failure_stage: "extraction_empty",
      institution: "CIBC",
    });
  });

  it("redelivery upserts the same pf_ row; one notice per institution per 24 hours", async () => {
    const notify = recordingNotifier();
    const a = await ingestEmail(unknownAlert("<same@x>"), testDeps({ notify }));
    const b = await ingestEmail(unknownAlert("<same@x>"), testDeps({ notify, now: "2024-10-20T13:00:00Z" }));
    expect((a as any).id).toBe((b as any).id);
    expect(await allFailures()).toHaveLength(1);
    await ingestEmail(unknownAlert("<other@x>"), testDeps({ notify, now: "2024-10-20T14:00:00Z" }));
    expect(notify.sent.filter((m) => m.kind === "quarantine")).toHaveLength(1);
    await ingestEmail(unknownAlert("<third@x>"), testDeps({ notify, now: "2024-10-21T15:00:00Z" }));
    expect(notify.sent.filter((m) => m.kind === "quarantine")).toHaveLength(2);
  });

  it("irrelevant mail is ignored and leaves no row (its raw is still kept)", async () => {
    const out = await ingestEmail(
      buildMime({ from: "news@deals.example", subject: "Autumn picks", body: "Cozy sweaters are here." }),
      testDeps(),
    );
    expect(out).toEqual({ status: "ignored", reason: "not_a_transaction_alert" });
    expect(await allFailures()).toHaveLength(0);
    expect(await allTransactions()).toHaveLength(0);
  });

  it("an alert in French from a bank we do not know is quarantined with AI off, never dropped", async () => {
    const out = await ingestEmail(
      buildMime({
        from: "Caisse Horizon <alertes@caissehorizon.example>",
        subject: "Alerte : achat par carte",
        body: "Un achat de 62,40\u00a0$ chez MARCHÉ CENTRAL a été porté à votre carte se terminant par 4821.",
      }),
      testDeps(),
    );
    expect(out).toMatchObject({ status: "quarantined" });
    const rows = await allFailures();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "quarantined" });
    expect(await allTransactions()).toHaveLength(0);
  });
});

/** The real D1, except statements matching `pattern` fail (a partial outage). */
/** Statements failingOn refused (so a test can show its pattern matched the real queries). */
const failed: string[] = [];

function failingOn(db: D1Database, pattern: RegExp): D1Database {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") {
        return (sql: string) => {
          if (pattern.test(sql)) {
            failed.push(sql);
            throw new Error("D1_ERROR: injected failure");
          }
          return target.prepare(sql);
        };
      }
      const v = Reflect.get(target, prop);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

describe("fail-open exactly where SPEC says", () => {
  beforeEach(() => resetIngestTables());

  it("dedup check, user mapping, override load and state reads fail open: the row is still written", async () => {
    const db = failingOn(
      env.DB,
      /select "DateFileName" from "transactions"|from "user_mappings"|from "overrides"|from "config_versions"/i,
    );
    failed.length = 0;
    const out = await ingestEmail(cibc(), testDeps({ db, settings: { userId: "fallback" } }));
    expect(out.status).toBe("created");
    // Each of the four reads really was refused (config_versions: the resolver's version stamp).
    for (const table of ["transactions", "user_mappings", "overrides", "config_versions"]) {
      expect(
        failed.some((q) => q.includes(`from "${table}"`)),
        table,
      ).toBe(true);
    }
    const [row] = await allTransactions();
    expect(row).toMatchObject({ UserId: "fallback", Category: "miscellaneous" });
    // The atomic insert still refuses a second copy even without the check.
    expect((await ingestEmail(cibc(), testDeps({ db }))).status).toBe("duplicate");
    expect(await allTransactions()).toHaveLength(1);
  });

  it("a storage outage on the write is not swallowed (the door retries)", async () => {
    const db = failingOn(env.DB, /insert into "transactions"/i);
    await expect(ingestEmail(cibc(), testDeps({ db }))).rejects.toThrow(/D1_ERROR/);
    expect(await allTransactions()).toHaveLength(0);
  });
});

describe("the Email Routing door reads the recipient's mapping and the overrides with the settings", () => {
  beforeEach(() => resetIngestTables());

  const door = (db: D1Database, raw: Uint8Array | string, to = "me@example.com") =>
    routeEmail(
      { raw: new Response(raw).body!, from: "mailbox.noreply@cibc.com", to },
      { ...env, DB: db } as Env,
      { clock: fixedClock(now), ai: null, notify: recordingNotifier(), settings: { userId: "fallback" } },
    );

  it("the mapped UserId (any case) and the override category come from the one settings batch", async () => {
    await env.DB.prepare("INSERT INTO user_mappings (ForwardedTo, UserId) VALUES (?, ?)")
      .bind("ME@example.com", "carlos")
      .run();
    await putOverride("GRANITE INSURANCE #204", "Insurance");
    invalidateResolverCache();
    const out = await door(env.DB, cibc());
    expect(out?.status).toBe("created");
    const [row] = await allTransactions();
    expect(row).toMatchObject({ UserId: "carlos", Category: "insurance" });
    // A message whose own recipient differs from the envelope's is looked up on its own.
    await door(env.DB, cibc({ to: "other@example.com", body: CIBC_BODY("OTHER SHOP", "$2.00") }));
    const rows = await allTransactions();
    expect(rows.find((r) => r.ForwardedTo === "other@example.com")?.UserId).toBe("fallback");
  });

  it("when the settings batch fails, the lists read as empty (fail-open) and the row is written", async () => {
    failed.length = 0;
    const db = failingOn(env.DB, /from "user_mappings"|from "card_names"/i);
    const out = await door(db, cibc());
    expect(out?.status).toBe("created");
    expect(failed.some((q) => q.includes('from "user_mappings"'))).toBe(true);
    const [row] = await allTransactions();
    expect(row).toMatchObject({ UserId: "fallback" });
  });

  it("a failing drift note does not lose the row nor the context written in its batch", async () => {
    const db = failingOn(env.DB, /insert into "kv_state"/i);
    const out = await door(db, cibc());
    expect(out?.status).toBe("created");
    const [row] = await allTransactions();
    expect(row?.TransactionContext).not.toBeNull();
  });
});
