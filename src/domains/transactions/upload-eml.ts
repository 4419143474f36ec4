import type { ServiceCtx } from "../../lib/context";
import { validationError } from "../../lib/errors";
import { fromCents } from "../../lib/money";
import { type DepsOptions, ingestAtDoor, type IngestOutcome } from "../../ingest";
import type { UploadEmlResponse } from "./upload-eml-schemas";

/** What src/http's readUpload hands over for an email file: 5 MB. */
export const EML_LIMITS = { maxBytes: 5 * 1024 * 1024, tooLarge: "Email file is larger than 5 MB" };

/** Checks the uploaded bytes are an email message: RFC 5322 header lines before any blank line (422 otherwise). */
export function checkEml(bytes: Uint8Array): Uint8Array {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 4096));
  if (!/^[!-9;-~]+:/.test(head.split(/\r?\n/, 1)[0] ?? "") || head.includes("\u0000")) {
    const msg = "The file is not an email message (no header block found)";
    throw validationError([{ loc: ["body", "file"], msg, type: "value_error" }]);
  }
  return bytes;
}

function toUploadResponse(o: IngestOutcome): UploadEmlResponse {
  if (o.status === "created" || o.status === "duplicate") {
    return {
      status: o.status,
      date_file_name: o.tx.DateFileName,
      amount: fromCents(o.tx.Amount),
      company: o.tx.Company,
      category: o.tx.Category,
      detail: o.status === "duplicate" ? "An identical transaction is already stored" : null,
    };
  }
  const none = { date_file_name: null, amount: null, company: null, category: null };
  return o.status === "quarantined"
    ? {
        status: "quarantined",
        ...none,
        detail: `No usable transaction (${o.failure_stage}); quarantined as ${o.id}`,
      }
    : { status: "ignored", ...none, detail: `Not a transaction alert (${o.reason})` };
}

/**
 * The upload door: the same pipeline as every other door. The request's ledger goes with it, so
 * the outcome's entry (created, duplicate, quarantined or ignored) rides in the write that settles it.
 * The head's recipient and year join the settings batch, like the Email Routing door's envelope.
 */
export async function uploadEml(
  ctx: ServiceCtx,
  { bytes, opts = {} }: { bytes: Uint8Array; opts?: DepsOptions },
): Promise<UploadEmlResponse> {
  const ledger = { journal: ctx.journal, batch: ctx.batch };
  return toUploadResponse(
    await ingestAtDoor(ctx.env, bytes, { clock: ctx.clock, ...opts, source: "upload", ledger }),
  );
}
