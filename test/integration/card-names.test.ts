// Issue 23 point 5 / SPEC's `Name` (cardholder first name): an alert that greets nobody gets the
// holder mapped to the card digits it prints (the shape of the reference's card_name_mappings.json).
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { resetAlertTables, upload } from "../fixtures/alerts/helpers";
import { buildMime } from "../fixtures/emails/builders";
import { call } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";

// MBNA alerts greet nobody: the holder comes from the mapping of the card digits they print.
const MAPPING = { MBNA: { "4417": "Robin Vale" }, RBC: { "0932": "Robin Vale" } };
const body = (which: "small" | "large") => {
  const [amount, merchant] =
    which === "small" ? ["$0.75", "Harbour Parking"] : ["$9,876.54", "Lakeview Furniture"];
  return `MBNA Alert\n\nA purchase of ${amount} from ${merchant} was made on your MBNA Mastercard card ending in 4417 on October 14, 2024.\n\nIf you did not make this purchase, please call us.\n\nThank you,\nMBNA`;
};
const mbna = (which: "small" | "large") =>
  buildMime({
    from: "MBNA <noreply@mbna.ca>",
    to: "owner@example.com",
    date: "Tue, 15 Oct 2024 14:30:00 -0700",
    body: body(which),
  });

beforeEach(resetAlertTables);

describe("card-name mapping", () => {
  it("MBNA alerts without a greeting store the mapped holder's name", async () => {
    // Before any mapping: no name (what issue 23 saw).
    expect((await upload(mbna("small"))).body.status).toBe("created");
    const counter = countingD1(env.DB);
    const put = await call("/api/v1/card-names", { method: "PUT", body: MAPPING, env: { DB: counter.db } });
    expectEntryInBatch(counter, "card_names");
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({ count: 2, mappings: MAPPING });
    expect((await call("/api/v1/card-names")).body.mappings).toEqual(MAPPING);

    expect((await upload(mbna("large"))).body.status).toBe("created");
    const list = await call("/api/v1/transactions?month=2024-10");
    const byAmount = Object.fromEntries(list.body.transactions.map((t: any) => [t.amount, t.name]));
    expect(byAmount[9876.54]).toBe("Robin Vale");
    expect(Object.values(byAmount)).toContain(null);
  });

  it("refuses digits that are not four, with the envelope", async () => {
    const res = await call("/api/v1/card-names", { method: "PUT", body: { MBNA: { "12": "Sam" } } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBeTruthy();
  });
});
