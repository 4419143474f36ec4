/**
 * THE reader of a multipart upload's `file` field (attachments, statements, emails, backups): the
 * declared length refused before the body is read, then the file's own size, an empty file, a
 * text field where a file belongs. Errors are the domain's TooLarge (413) and Invalid (422).
 */
import { Invalid, TooLarge } from "../lib/errors";

interface UploadLimits {
  /** The largest file accepted, in bytes. */
  maxBytes: number;
  /** The 413's words ("The file is larger than 10 MB"). */
  tooLarge: string;
}

interface UploadedFile {
  bytes: Uint8Array;
  /** The client's file name, as sent (clean it before it names anything). */
  name: string;
  /** The client's declared type (a hint: the bytes decide). */
  type: string;
  /** The form's other text fields: trimmed, null when absent or not text. */
  field(name: string): string | null;
}

/** Multipart framing around the file: a few KB at most. */
const FORM_OVERHEAD = 64 * 1024;

const fileIssue = (msg: string, type = "value_error") =>
  new Invalid([{ loc: ["body", "file"], msg, type }], msg);

export async function readUpload(request: Request, limits: UploadLimits): Promise<UploadedFile> {
  const tooLarge = () => new TooLarge(limits.tooLarge, { max_bytes: limits.maxBytes });
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limits.maxBytes + FORM_OVERHEAD) throw tooLarge();
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw fileIssue("Expected multipart/form-data with a `file` field", "missing");
  }
  const file = form.get("file");
  if (file === null) throw fileIssue("Field required", "missing");
  if (typeof file === "string") throw fileIssue("`file` must be a file upload, not a text field");
  if (file.size > limits.maxBytes) throw tooLarge();
  if (file.size === 0) throw fileIssue("The file is empty");
  return {
    bytes: new Uint8Array(await file.arrayBuffer()),
    name: file.name ?? "",
    type: file.type ?? "",
    field: (name) => {
      const v = form.get(name);
      return typeof v === "string" ? v.trim() : null;
    },
  };
}
