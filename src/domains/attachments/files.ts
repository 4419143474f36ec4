/**
 * The upload form and the stored object. Size, extension, declared type and magic bytes are
 * checked before anything is written; R2 keys come from the month and the file's hash only.
 */
import type { Env } from "../../env";
import { sha256Hex } from "../../ingest/hash";
import { Unsupported, validationError } from "../../lib/errors";
import { checkPixels } from "./dimensions";
import { checkFile, FAMILIES, type FileFamily, MAX_ATTACHMENT_BYTES } from "./filetype";

export interface Upload {
  filename: string;
  declaredType: string;
  bytes: Uint8Array;
  kind: string;
  txId: string | null;
}

export const KINDS = ["receipt", "document"] as const;

const fieldIssue = (field: string, msg: string, type = "value_error") =>
  validationError([{ loc: ["body", field], msg, type }]);

import { cleanFilename } from "../../lib/filename";

export { cleanFilename, UNSAFE_NAME_CHARS } from "../../lib/filename";

/** What src/http's readUpload hands over for an attachment: 10 MB. */
export const ATTACHMENT_LIMITS = {
  maxBytes: MAX_ATTACHMENT_BYTES,
  tooLarge: "The file is larger than 10 MB",
};

/** An uploaded file and its form fields, as the attachment checks read them. */
interface UploadedAttachment {
  bytes: Uint8Array;
  name: string;
  type: string;
  kind: string | null;
  txId: string | null;
}

/** Checks an uploaded file (name, kind, declared type against the bytes, pixels); 415 or 422 errors. */
export function checkUpload(file: UploadedAttachment): Upload & { family: FileFamily } {
  const kind = file.kind || "receipt";
  if (!(KINDS as readonly string[]).includes(kind))
    throw fieldIssue("kind", "kind must be `receipt` or `document`");
  const txId = file.txId && file.txId !== "null" ? file.txId : null;
  const filename = cleanFilename(file.name);
  if (!filename) throw fieldIssue("file", "The file has no name");
  const check = checkFile(filename, file.type, file.bytes);
  if (!check.ok) throw new Unsupported(check.reason, { accepted: Object.keys(FAMILIES) });
  checkPixels(file.bytes);
  return { filename, declaredType: file.type, bytes: file.bytes, kind, txId, family: check.family };
}

/** `att_` + 16 hex of SHA-256 over (file hash, original filename): the same file re-uploaded upserts. */
export async function attachmentId(fileHash: string, filename: string): Promise<string> {
  return `att_${(await sha256Hex(`${fileHash}\n${filename}`)).slice(0, 16)}`;
}

/** `attachments/YYYY-MM/<sha256>.<ext>`: by month, named by content, never by the filename. */
export function objectKey(now: Date, hash: string, family: FileFamily): string {
  return `attachments/${now.toISOString().slice(0, 7)}/${hash}.${FAMILIES[family].extension}`;
}

/** The shape objectKey makes: nothing else is ever read, served or deleted for an attachment. */
const ATTACHMENT_KEY = /^attachments\/\d{4}-(0[1-9]|1[0-2])\/[0-9a-f]{64}\.(jpg|png|webp|heic|pdf)$/;
export const isAttachmentKey = (key: string) => ATTACHMENT_KEY.test(key);

export async function putObject(env: Env, key: string, bytes: Uint8Array, contentType: string) {
  await env.FILES.put(key, bytes, { httpMetadata: { contentType } });
}

export async function getObjectBytes(env: Env, key: string): Promise<Uint8Array | null> {
  if (!isAttachmentKey(key)) return null;
  const obj = await env.FILES.get(key);
  return obj ? new Uint8Array(await obj.arrayBuffer()) : null;
}
