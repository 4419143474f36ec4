/**
 * AI-offered templates: an AI-rescued alert of a bank no built-in parser or
 * learned template reads, whose validated values are found verbatim in the email, is offered as a
 * template; accepting it saves the template without the person typing anything.
 */
import { getDb } from "../../db";
import type { TransactionRow } from "../../db/schema";
import { createIngestDeps } from "../../ingest";
import { sha256Hex } from "../../ingest/hash";
import { institutionByDomain } from "../../ingest/institutions";
import { parseMime } from "../../ingest/mime";
import { makeEnvelope } from "../../ingest/pipeline";
import { type Derived, deriveTemplate, nameFromHost, readLearned, senderHost, templateId } from "./engine";
import { getTemplateRow, insertTemplateRow } from "./engine/queries";
import { newTemplateRow } from "./engine/store";
import type { IngestDeps } from "../../ingest/types";
import type { ServiceCtx } from "../../lib/context";
import { conflict, notFound } from "../../lib/errors";
import { fromCents } from "../../lib/money";
import { decodeTxId, encodeTxId } from "../../lib/txid";
import { queuedRows } from "../transactions/attention-queries";
import { rowByKeyQuery } from "../transactions/queries";
import type { TemplateOffer } from "./schemas";
import { comparable, templateEntry } from "./service";

async function offerFor(
  deps: IngestDeps,
  tx: TransactionRow,
): Promise<{ offer: TemplateOffer; derived: Derived } | null> {
  if (institutionByDomain(tx.FromEmail) || !tx.FileName || tx.Amount === null || !tx.Company) return null;
  const object = await deps.files.get(tx.FileName);
  if (!object) return null;
  const bytes = new Uint8Array(await object.arrayBuffer());
  const env = await makeEnvelope(deps, await parseMime(bytes), await sha256Hex(bytes), tx.FileName);
  // Already taught: a template reads it (the sender's templates read with the settings, if known).
  if (await readLearned(deps.db, env.email, env.local, deps.settings.prefetched?.templates)) return null;
  const l = env.local;
  const d = deriveTemplate({
    fromEmail: env.email.fromEmail,
    subject: env.email.subject,
    body: env.email.text,
    sentIso: `${l.year}-${l.month}-${l.day}`,
    amount: tx.Amount,
    merchant: tx.Company,
    date: tx.DateFileName.slice(0, 10).replaceAll(".", "-"),
  });
  if (!d.ok) return null;
  const domain = d.template.senderDomain;
  return {
    derived: d.template,
    offer: {
      tx_id: encodeTxId(tx.ForwardedTo, tx.DateFileName),
      sender_domain: domain,
      suggested_institution: nameFromHost(domain),
      amount: fromCents(tx.Amount),
      company: tx.Company,
      transaction_type: tx.TransactionType ?? "purchase",
      example: d.template.example,
    },
  };
}

/** AI-rescued rows still awaiting review, each offered once per sender domain. */
export async function listOffers(ctx: ServiceCtx) {
  const [queued, deps] = await Promise.all([
    queuedRows(getDb(ctx.env.DB), "ai_extraction", 50),
    createIngestDeps(ctx.env, { clock: ctx.clock, ai: null, source: "template-offer" }),
  ]);
  const offers: TemplateOffer[] = [];
  for (const { tx } of queued) {
    const o = await offerFor(deps, tx);
    if (o && !offers.some((x) => x.sender_domain === o.offer.sender_domain)) offers.push(o.offer);
  }
  return { count: offers.length, offers };
}

/** Saves the offered template; 409 when the row offers none (any more). */
export async function acceptOffer(
  ctx: Pick<ServiceCtx, "env" | "clock" | "journal" | "batch">,
  { txId, institution }: { txId: string; institution: string | null | undefined },
) {
  const key = decodeTxId(txId);
  if (!key) throw notFound("Transaction");
  const [tx] = await rowByKeyQuery(getDb(ctx.env.DB), key);
  if (!tx || tx.DeletedAt !== null) throw notFound("Transaction");
  // Its recipient's mapping and its sender's templates ride in the settings batch.
  const host = senderHost(tx.FromEmail);
  const deps = await createIngestDeps(ctx.env, {
    clock: ctx.clock,
    ai: null,
    source: "template-offer",
    recipient: tx.ForwardedTo,
    ...(host ? { templatesHost: host } : {}),
  });
  const o = await offerFor(deps, tx);
  if (!o)
    throw conflict(
      "This transaction offers no template (its values are not in its email, or it is read already)",
    );
  const name = institution?.trim() || o.offer.suggested_institution;
  const id = await templateId(o.derived);
  const fresh = newTemplateRow(id, o.derived, {
    name: `${name} ${o.offer.transaction_type}`,
    institution: name,
    transactionType: o.offer.transaction_type,
    sourceFailureId: null,
    nowIso: ctx.clock().toISOString(),
  });
  // The same template saved before stays as it was (the insert does nothing): the entry says so.
  // It is among the sender's templates read with the settings (same host), else read now.
  const known = deps.settings.prefetched?.templates;
  const stored =
    known?.host === o.derived.senderDomain
      ? known.rows.find((r) => r.id === id)
      : await getTemplateRow(getDb(ctx.env.DB), id);
  const row = stored ?? fresh;
  const summary = `Taught the journal ${row.institution}'s alerts`;
  ctx.journal(templateEntry(id, {}, comparable(row), summary));
  await ctx.batch([insertTemplateRow(getDb(ctx.env.DB), fresh)]);
  return row;
}
