/** The year's tax pack as a zip: streamed in the request, or built in steps past DIRECT_FILES. */
import { getDb } from "../../db";
import type { Env } from "../../env";
import { isAttachmentKey } from "../attachments/files";
import type { ServiceCtx } from "../../lib/context";
import { log } from "../../lib/log";
import { decodeTxId } from "../../lib/txid";
import { DIRECT_FILES, startTaxBuild, type taxBuildView, writeTaxZip } from "./export-steps";
import * as q from "./queries";
import { computeYear } from "./service";
import { packFiles, type ZipSources } from "./zip";

export const exportName = (year: number) => `tax-pack-${year}.zip`;

/** The alert as an accountant reads it: a few headers, then the body as stored. */
async function emailText(env: Env, txId: string): Promise<string | null> {
  const key = decodeTxId(txId);
  const row = key ? await q.txBody(getDb(env.DB), key) : null;
  if (!row) return null;
  return `From: ${row.from ?? ""}\nDate: ${row.date ?? ""}\nSubject: ${row.subject ?? ""}\n\n${row.body ?? ""}\n`;
}

/** Where the evidence comes from: one R2 read a receipt, one D1 query an alert's text. */
export const zipSources = (env: Env): ZipSources => ({
  // Only keys of the shape uploads make (a row restored by an old build could name another object).
  openReceipt: async (key: string) =>
    isAttachmentKey(key) ? ((await env.FILES.get(key))?.body ?? null) : null,
  emailText: (txId: string) => emailText(env, txId),
});

type TaxExport =
  | { streamed: ReadableStream<Uint8Array> }
  | { build: ReturnType<typeof taxBuildView>; started: boolean };

/**
 * Reads the year first (errors answer with the envelope). Up to DIRECT_FILES evidence files the
 * zip streams through a TransformStream while the response is already flowing; past it, the
 * stepped build starts (its first step here) and its status is the answer.
 */
export async function startTaxExport(ctx: ServiceCtx, year: number): Promise<TaxExport> {
  const pack = await computeYear(ctx, year);
  const files = packFiles(pack.lines, pack.receipts);
  if (files.files.length > DIRECT_FILES) {
    const { started, view } = await startTaxBuild(ctx.env, ctx.clock, year, files);
    return { build: view, started };
  }
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  ctx.waitUntil(
    writeTaxZip(ctx.env, ctx.clock, { year, pack: files }, writable).catch((err) =>
      log("error", "tax_export.failed", { year, error: String(err) }),
    ),
  );
  return { streamed: readable };
}
