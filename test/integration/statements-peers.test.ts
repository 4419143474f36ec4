// Every peer-corpus file (other projects' own fixtures) and every file we made for the cases the
// corpus lacks, uploaded through the HTTP API: each row exact (date and signed amount to the cent)
// or refused in words where the peer refuses it too. A CSV the peer reads only with a per-bank
// configuration is rescued the way a person does: its columns confirmed once in the mapping form.
import { env } from "cloudflare:test";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { expectedRows, type PeerFile, peerFiles, rowKeys } from "../fixtures/statements/peers";
import { call } from "../helpers/http";

const NOW = "2026-01-15T12:00:00.000Z";
const tally = { exact: 0, rescued: 0, refused: 0 };

const upload = (f: PeerFile) => {
  const fd = new FormData();
  fd.append("file", new File([f.bytes], f.name.split("/").at(-1)!, { type: "application/octet-stream" }));
  return call("/api/v1/statements/upload", { method: "POST", rawBody: fd, now: NOW });
};
type Txn = { date: string; amount: number; type: string };
const signed = (t: Txn) => ({
  date: t.date,
  amount_cents: Math.round(t.amount * 100) * (t.type === "withdrawal" ? -1 : 1),
});
const detailRows = async (id: string) => {
  const res = await call(`/api/v1/statements/${id}`, { now: NOW });
  expect(res.status, res.text).toBe(200);
  return (res.body.transactions as Txn[]).map(signed);
};

async function readThroughApi(f: PeerFile) {
  const res = await upload(f);
  if (res.status === 422 && res.body.code === "CSV_MAPPING_NEEDED" && f.expected.mapping) {
    // The refused header was kept: confirm the columns as the mapping form does.
    const id = res.body.details.statement_id as string;
    const put = await call(`/api/v1/statements/${id}/csv-mapping`, {
      method: "PUT",
      body: { institution: "Peer Bank", mapping: f.expected.mapping },
      now: NOW,
    });
    expect(put.status, put.text).toBe(200);
    tally.rescued++;
    return { rows: (put.body.transactions as Txn[]).map(signed), statements: 1 };
  }
  expect(res.status, res.text).toBe(200);
  let rows = (res.body.transactions as Txn[]).map(signed);
  const others = res.body.other_statements as { statement_id: string; transaction_count: number }[];
  for (const o of others) rows = rows.concat(await detailRows(o.statement_id));
  if (f.expected.mapping && res.body.statement_id) {
    // Read, but not as the peer's configuration does: the person flips or corrects the columns once.
    const put = await call(`/api/v1/statements/${res.body.statement_id}/csv-mapping`, {
      method: "PUT",
      body: { institution: "Peer Bank", mapping: f.expected.mapping },
      now: NOW,
    });
    expect(put.status, put.text).toBe(200);
    tally.rescued++;
    return { rows: (put.body.transactions as Txn[]).map(signed), statements: 1 };
  }
  tally.exact++;
  const warnings = [res.body.balance_check.warnings as string[]];
  for (const o of others)
    warnings.push(
      (await call(`/api/v1/statements/${o.statement_id}`, { now: NOW })).body.balance_check.warnings,
    );
  return { rows, statements: 1 + others.length, warnings: warnings.flat().join("\n") };
}

if (peerFiles("peers").length === 0)
  it.skip("peer corpus: ../shared/corpora/project-peers/statements is absent here (skipped)", () => {});

describe.each(["peers", "made"] as const)("%s files through the HTTP API", (which) => {
  beforeEach(async () => {
    await env.DB.batch(
      ["statements", "statement_rows", "statement_csv_mappings"].map((t) =>
        env.DB.prepare(`DELETE FROM ${t}`),
      ),
    );
  });
  for (const f of peerFiles(which)) {
    it(f.name, async () => {
      if (f.expected.refused) {
        const res = await upload(f);
        expect([415, 422], res.text).toContain(res.status);
        expect(res.body.error, res.text).toMatch(/\w+ \w+ \w+ \w+/);
        tally.refused++;
        return;
      }
      const got = await readThroughApi(f);
      expect(rowKeys(got.rows)).toEqual(rowKeys(expectedRows(f.expected, got.rows)));
      if (f.expected.statements) expect(got.statements).toBe(f.expected.statements);
      // A row whose amount has a part below a cent is read at the cent and named in words.
      for (const r of f.expected.refused_rows ?? [])
        expect("warnings" in got ? got.warnings : "").toContain(`${r.peer_amount} ${r.reason}`);
    });
  }
});

afterAll(() => {
  console.log(
    `statement corpus: ${tally.exact} exact, ${tally.rescued} rescued by a confirmed mapping, ${tally.refused} refused in words`,
  );
});
