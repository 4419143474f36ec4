import type { ServiceCtx } from "../../lib/context";
import { ApiError, validationError } from "../../lib/errors";
import { fromCents } from "../../lib/money";
import { createIngestDeps, type DepsOptions, ingestEmail, type IngestOutcome } from "../../ingest";
import type { UploadEmlResponse } from "./schemas";

export const MAX_EML_BYTES = 5 * 1024 * 1024;

const tooLarge = () =>
  new ApiError(413, `Email file is larger than ${MAX_EML_BYTES / 1024 / 1024} MB`, "PAYLOAD_TOO_LARGE", {
    max_bytes: MAX_EML_BYTES,
  });

const fileIssue = (msg: string, type = "value_error") =>
  validationError([{ loc: ["body", "file"], msg, type }]);

/** Reads and checks the multipart `file` field; errors are 413 or 422 envelopes. */
export async function readEmlUpload(request: Request): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_EML_BYTES + 64 * 1024) throw tooLarge();
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw fileIssue("Expected multipart/form-data with a `file` field", "missing");
  }
  const file = form.get("file");
  if (file === null) throw fileIssue("Field required", "missing");
  if (typeof file === "string") throw fileIssue("`file` must be a file upload, not a text field");
  if (file.size > MAX_EML_BYTES) throw tooLarge();
  if (file.size === 0) throw fileIssue("The file is empty");
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!looksLikeEmail(bytes)) throw fileIssue("The file is not an email message (no header block found)");
  return bytes;
}

/** A message starts with RFC 5322 header lines (`Name: value`) before any blank line. */
export function looksLikeEmail(bytes: Uint8Array): boolean {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 4096));
  const firstLines = head.split(/\r?\n/).slice(0, 3);
  return firstLines.length > 0 && /^[!-9;-~]+:/.test(firstLines[0] ?? "") && !head.includes("\u0000");
}

export function toUploadResponse(o: IngestOutcome): UploadEmlResponse {
  switch (o.status) {
    case "created":
    case "duplicate":
      return {
        status: o.status,
        date_file_name: o.tx.DateFileName,
        amount: fromCents(o.tx.Amount),
        company: o.tx.Company,
        category: o.tx.Category,
        detail: o.status === "duplicate" ? "An identical transaction is already stored" : null,
      };
    case "quarantined":
      return {
        status: "quarantined",
        date_file_name: null,
        amount: null,
        company: null,
        category: null,
        detail: `No usable transaction (${o.failure_stage}); quarantined as ${o.id}`,
      };
    default:
      return {
        status: "ignored",
        date_file_name: null,
        amount: null,
        company: null,
        category: null,
        detail: `Not a transaction alert (${o.reason})`,
      };
  }
}

/** The upload door: the same pipeline as every other door. */
export async function uploadEml({
  ctx,
  bytes,
  opts = {},
}: {
  ctx: ServiceCtx;
  bytes: Uint8Array;
  opts?: DepsOptions;
}): Promise<UploadEmlResponse> {
  const deps = await createIngestDeps(ctx.env, { clock: ctx.clock, ...opts, source: "upload" });
  return toUploadResponse(await ingestEmail(bytes, deps));
}
