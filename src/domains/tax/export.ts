/** The year's tax pack as a streamed zip: the lines from D1, receipts piped from R2. */
import { getDb } from "../../db";
import { isAttachmentKey } from "../attachments/files";
import type { ServiceCtx } from "../../lib/context";
import { log } from "../../lib/log";
import { decodeTxId } from "../../lib/txid";
import * as q from "./queries";
import { computeYear } from "./service";
import { writeTaxZip } from "./zip";

type Ctx = Pick<ServiceCtx, "env" | "clock">;

export const exportName = (year: number) => `tax-pack-${year}.zip`;

/** The alert as an accountant reads it: a few headers, then the body as stored. */
async function emailText(ctx: Ctx, txId: string): Promise<string | null> {
  const key = decodeTxId(txId);
  const row = key ? await q.txBody(getDb(ctx.env.DB), key) : null;
  if (!row) return null;
  return `From: ${row.from ?? ""}\nDate: ${row.date ?? ""}\nSubject: ${row.subject ?? ""}\n\n${row.body ?? ""}\n`;
}

/**
 * Reads the year first (errors answer with the envelope), then streams the zip through a
 * TransformStream while the response is already flowing.
 */
export async function startTaxExport(ctx: Ctx & Pick<ServiceCtx, "waitUntil">, year: number) {
  const pack = await computeYear(ctx, year);
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const sources = {
    // Only keys of the shape uploads make (a row restored by an old build could name another object).
    openReceipt: async (key: string) =>
      isAttachmentKey(key) ? ((await ctx.env.FILES.get(key))?.body ?? null) : null,
    emailText: (txId: string) => emailText(ctx, txId),
  };
  ctx.waitUntil(
    writeTaxZip(pack.lines, pack.receipts, sources, writable).catch((err) =>
      log("error", "tax_export.failed", { year, error: String(err) }),
    ),
  );
  return readable;
}
