/** Hand-entered transactions: same storage rules (hash, dedup, DateFileName) as the email doors. */
import type { ServiceCtx } from "../../lib/context";
import { ApiError } from "../../lib/errors";
import { encodeTxId } from "../../lib/txid";
import { resolveOverride } from "../../ingest/categorize";
import { addTransaction, transactionHash } from "../../ingest/dedup";
import { dateFileName, displayDate, localParts } from "../../ingest/dates";
import { sha256Hex } from "../../ingest/hash";
import { getConfig } from "../config/service";
import { resolveCategory } from "./service";

type Ctx = Pick<ServiceCtx, "env" | "clock">;
export const MANUAL_RECIPIENT = "manual@finance-journal.local";

export interface ManualInput {
  date: string;
  amount: number;
  company: string;
  category?: string | null;
  institution?: string | null;
  name?: string | null;
  transaction_type: string;
}

export async function addManual(ctx: Ctx, input: ManualInput) {
  const config = await getConfig({ ctx });
  const noon = new Date(`${input.date}T12:00:00Z`);
  if (Number.isNaN(noon.getTime())) {
    throw new ApiError(422, "Invalid date", "VALIDATION_ERROR", {
      errors: [{ loc: ["body", "date"], msg: "not a real date", type: "value_error" }],
    });
  }
  // Noon local time on the given day: the date is what the person typed, whatever the zone.
  const parts = {
    ...localParts(noon, config.timezone),
    year: input.date.slice(0, 4),
    month: input.date.slice(5, 7),
    day: input.date.slice(8, 10),
    hour: "12",
    minute: "00",
  };
  const company = input.company.trim();
  const amount = Math.round(input.amount * 100) / 100;
  const institution = input.institution?.trim() || "Manual";
  const date = displayDate(parts);
  const hash = await transactionHash({
    forwardedTo: MANUAL_RECIPIENT,
    institution,
    amount,
    company,
    date,
    transactionType: input.transaction_type,
  });
  const now = ctx.clock().toISOString();
  let category: string;
  let audit: Record<string, unknown>;
  if (input.category) {
    category = await resolveCategory(ctx, input.category);
    audit = { source: "manual", confidence: 1, reviewed_at: now, schema_version: 1 };
  } else {
    const hit = await resolveOverride(ctx.env.DB, ctx.clock, company);
    category = (hit?.category ?? "Miscellaneous").toLowerCase();
    audit = hit
      ? { ...hit.audit }
      : { source: "manual", fallback_reason: "no override matched", schema_version: 1 };
  }
  const file = dateFileName(parts, `manual_${(await sha256Hex(hash)).slice(0, 8)}`);
  const added = await addTransaction(
    ctx.env.DB,
    {
      ForwardedTo: MANUAL_RECIPIENT,
      DateFileName: file,
      TransactionHash: hash,
      UserId: config.user_id,
      Institution: institution,
      Amount: amount,
      Company: company,
      TransactionType: input.transaction_type,
      Category: category,
      Name: input.name?.trim() || null,
      Date: date,
      FileName: "",
      FromName: "",
      FromEmail: "",
      ToName: "",
      ToEmail: "",
      Subject: "Manual entry",
      Body: "",
      CategoryAudit: audit as never,
      ExtractionAudit: null,
      TransactionContext: null,
    },
    now,
  );
  if (added === undefined)
    throw new ApiError(422, "The transaction was rejected by validation", "VALIDATION_ERROR");
  const dfn = added === false ? file : added;
  return {
    tx_id: encodeTxId(MANUAL_RECIPIENT, dfn),
    forwarded_to: MANUAL_RECIPIENT,
    date_file_name: dfn,
    category,
    status: added === false ? "duplicate" : "created",
  };
}
