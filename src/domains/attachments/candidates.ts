/**
 * Receipt candidates: the receipt's facts (its parse, or totals the person typed), the live
 * spending rows of its ±3-day window, ranked by rules.ts. Exactly one T1 row auto-links an unfiled
 * receipt, journaled with the caller as principal; in demo mode, or for a read-only token, the
 * response only names the row it would link.
 */
import { aliasKeyFn } from "../../categorize/rules";
import { getResolverIndex } from "../../categorize/resolver";
import { getDb } from "../../db";
import type { AttachmentRow } from "../../db/schema";
import { doorCtx } from "../activity/journal";
import { isDemo } from "../../env";
import type { ServiceCtx } from "../../lib/context";
import { conflict, notFound } from "../../lib/errors";
import { readReceipt } from "./stored";
import { fromCents, plainCents, toCents, ZERO_CENTS } from "../../lib/money";
import { decodeTxId, encodeTxId } from "../../lib/txid";
import { autoLinkQuery, receiptedInRange, spendingInRange } from "./queries";
import { rankCandidates, type ReceiptFacts, searchBounds, type TxFacts } from "./rules";
import type { ReceiptCandidatesResponse } from "./schemas";
import { linkImage, loadAttachment, toResponse } from "./service";

interface FactsInput {
  total?: number;
  date?: string;
  merchant?: string;
}

function parsedFacts(row: AttachmentRow): FactsInput {
  if (row.parse_status !== "parsed" || !row.parse_json) return {};
  const p = readReceipt(row.parse_json);
  return { total: p?.total, date: p?.date, merchant: p?.merchant };
}

const dayOf = (dateFileName: string) => dateFileName.slice(0, 10).replaceAll(".", "-");
const keyOf = (fwd: string | null, dfn: string | null) => `${fwd}\n${dfn}`;

/** `mayLink: false` (a cross-site request with browser credentials) only names the auto-link. */
export async function candidates(
  ctx: ServiceCtx,
  { id, typed, opts = { mayLink: true } }: { id: string; typed: FactsInput; opts?: { mayLink: boolean } },
): Promise<ReceiptCandidatesResponse> {
  let row = await loadAttachment(ctx, id);
  if (!row) throw notFound("Attachment");
  const given = {
    ...parsedFacts(row),
    ...Object.fromEntries(Object.entries(typed).filter(([, v]) => v !== undefined)),
  };
  if (given.total === undefined || given.date === undefined) {
    throw conflict(
      "The receipt has no total and date yet: parse it, or pass `total` and `date`",
      "CONFLICT",
      {
        parse_status: row.parse_status,
      },
    );
  }
  const index = await getResolverIndex(getDb(ctx.env.DB), ctx.clock);
  const keyFn = aliasKeyFn(index.aliasOf);
  const facts: ReceiptFacts = {
    totalCents: toCents(given.total),
    day: given.date,
    merchantKey: given.merchant ? keyFn(given.merchant) : "",
  };
  const { lo, hi } = searchBounds(facts.day);
  const [rows, receipted] = await Promise.all([
    spendingInRange(getDb(ctx.env.DB), lo, hi),
    receiptedInRange(getDb(ctx.env.DB), lo, hi, id),
  ]);
  const withReceipt = new Set(receipted.map((r) => keyOf(r.ForwardedTo, r.DateFileName)));
  const txs: TxFacts[] = rows.map((r) => ({
    txId: encodeTxId(r.ForwardedTo, r.DateFileName),
    day: dayOf(r.DateFileName),
    amountCents: r.Amount ?? ZERO_CENTS,
    company: r.Company ?? "",
    merchantKey: keyFn(r.Company ?? ""),
    category: r.Category ?? "",
    hasReceipt: withReceipt.has(keyOf(r.ForwardedTo, r.DateFileName)),
  }));
  const { shown, autoLink: target } = rankCandidates(facts, txs);
  const unfiled = row.tx_date_file_name === null;
  const mayWrite = opts.mayLink && !isDemo(ctx.env) && ctx.principal.scope !== "read";
  let autoLinked = false;
  if (target && unfiled && mayWrite) {
    await journaledAutoLink(ctx, row, target.tx);
    row = await loadAttachment(ctx, id);
    autoLinked = txIdOfRow(row) === target.tx.txId;
  }
  return {
    attachment_id: id,
    auto_link_candidate: target !== null && unfiled,
    auto_linked: autoLinked,
    candidates: shown.map((c) => ({
      tx_id: c.tx.txId,
      tier: c.tier,
      day_distance: c.dayDistance,
      amount_distance: fromCents(c.amountDistance),
      company: c.tx.company,
      amount: fromCents(c.tx.amountCents),
      date: c.tx.day,
      category: c.tx.category,
      already_has_receipt: c.tx.hasReceipt,
    })),
    attachment: toResponse(row),
  };
}

const txIdOfRow = (r: AttachmentRow) => linkImage(r)?.tx_id ?? null;

/**
 * The link and its ledger entry in one batch. A GET is never journaled by the middleware, so the
 * auto-link opens its own ledger under the request's envelope; the entry lands only when the
 * guarded link did (the attachment still unfiled).
 */
async function journaledAutoLink(ctx: ServiceCtx, row: AttachmentRow, tx: TxFacts) {
  const { ctx: door } = doorCtx(ctx.env, ctx.clock, {
    principal: ctx.principal,
    operationId: "listReceiptMatchCandidates",
    method: "GET",
    path: `/api/v1/attachments/${row.id}/candidates`,
  });
  door.journal({
    kind: "attachment",
    resourceId: row.id,
    before: { tx_id: null },
    after: { tx_id: tx.txId },
    summary: `Receipt ${row.original_filename} auto-linked to ${tx.company} ${plainCents(tx.amountCents)} on ${tx.day}`,
  });
  const at = ctx.clock().toISOString();
  await door.batch([autoLinkQuery(getDb(ctx.env.DB), row.id, decodeTxId(tx.txId)!, at)], { ifChanged: true });
}
