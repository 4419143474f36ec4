/**
 * The files of a backup and the rows that point at them. A restored row never names an R2 key or
 * a served type: the server derives both, exactly as an upload would, from the row's id, its hash,
 * its month and the file's own sniffed bytes. A pointer in the zip that is not what the server would
 * make is replaced (attachments, statements) or dropped (raw emails); a file whose bytes do not match
 * the row's hash, or are not an image/PDF for an attachment, is refused with the reason.
 */
import { sha256Hex } from "../../ingest/hash";
import { cleanFilename } from "../attachments/files";
import { MAX_PIXELS, imageSize } from "../attachments/dimensions";
import { FAMILIES, type FileFamily, extensionOf, sniff } from "../attachments/filetype";
import { CONTENT_TYPES, type FileKind, r2KeyFor } from "../statements/files";

type Row = Record<string, unknown>;

/** Raw emails as the ingest pipeline keys them (src/ingest/raw.ts): named by their own hash. */
const EMAIL_KEY = /^emails\/\d{4}\/(0[1-9]|1[0-2])\/([0-9a-f]{16})\.eml$/;
/** Any key inside the raw-email namespace (older builds named them differently): nothing else. */
export const EMAIL_SPACE = /^emails\/(?!.*\.\.)[A-Za-z0-9._\-/]{1,200}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])/;
const KINDS: readonly string[] = Object.keys(CONTENT_TYPES);
const STORED_FAMILIES: FileFamily[] = ["jpeg", "png", "webp", "pdf"];

/** Where a file sits inside the backup zip (a label; never used as a key on restore). */
export function entryName(table: string, row: Row): string | null {
  if (table === "attachments" && typeof row.id === "string") return `files/attachments/${row.id}`;
  if (table === "statements" && typeof row.id === "string") return `files/statements/${row.id}`;
  const pointer = table === "transactions" ? row.FileName : table === "parse_failures" ? row.raw_key : null;
  return typeof pointer === "string" && EMAIL_SPACE.test(pointer) ? `files/${pointer}` : null;
}

/** The caps of file entries, by what they are (the upload limits; Email Routing's 25 MB). */
export function fileCap(name: string): number {
  return name.startsWith("files/emails/") ? 25 * 1024 * 1024 : 10 * 1024 * 1024;
}

/** A restored attachment row with the key and type the server derives; a string says why not. */
export function deriveAttachment(row: Row, family?: FileFamily): Row | string {
  const sha = String(row.sha256 ?? "");
  if (!HEX64.test(sha)) return "sha256 is not a SHA-256 hex digest";
  const month = MONTH.exec(String(row.created_at ?? ""))?.[0];
  if (!month) return "created_at is not a date";
  const fam =
    family ?? STORED_FAMILIES.find((f) => FAMILIES[f].contentType === String(row.content_type).toLowerCase());
  if (!fam || !STORED_FAMILIES.includes(fam))
    return `content_type ${String(row.content_type)} is not an image or PDF this journal stores`;
  const name = cleanFilename(String(row.original_filename ?? "")) || `attachment.${FAMILIES[fam].extension}`;
  return {
    ...row,
    original_filename: name,
    content_type: FAMILIES[fam].contentType,
    r2_key: `attachments/${month}/${sha}.${FAMILIES[fam].extension}`,
  };
}

/** A restored statement row: kind checked, key from (institution, hash, kind). */
export function deriveStatement(row: Row): Row | string {
  const sha = String(row.file_sha256 ?? "");
  if (!HEX64.test(sha)) return "file_sha256 is not a SHA-256 hex digest";
  const kind = String(row.file_kind ?? "");
  if (!KINDS.includes(kind)) return `file_kind ${kind} is not one of ${KINDS.join(", ")}`;
  // A statement re-read under another institution keeps its first key, and the second and later
  // accounts of one file carry their place in it (`<sha>.<n>.<kind>`): accept exactly those shapes.
  const same = new RegExp(`^statements/[a-z0-9-]+/${sha}(\\.[1-9]\\d{0,2})?\\.${kind}$`);
  const key = typeof row.r2_key === "string" && same.test(row.r2_key) ? row.r2_key : null;
  return {
    ...row,
    filename: cleanFilename(String(row.filename ?? "")) || "statement",
    r2_key: key ?? r2KeyFor(String(row.institution ?? ""), sha, kind as FileKind),
  };
}

/**
 * A raw-email pointer is kept only inside the raw-email namespace (or empty); anything else is
 * dropped. An ignored email's key is read back into the pipeline, so it must be exactly the key the
 * pipeline makes for that row (emails/YYYY/MM/<first 16 of its raw_sha256>.eml), else dropped.
 */
export function derivePointer(table: string, row: Row): Row {
  if (table === "ignored_emails") {
    const v = row.raw_key;
    if (v === undefined || v === null) return row;
    const m = typeof v === "string" ? EMAIL_KEY.exec(v) : null;
    const sha = typeof row.raw_sha256 === "string" ? row.raw_sha256.toLowerCase() : "";
    return m && sha.startsWith(m[2]!) ? row : { ...row, raw_key: null };
  }
  const col = table === "transactions" ? "FileName" : table === "parse_failures" ? "raw_key" : null;
  const v = col ? row[col] : undefined;
  if (!col || v === undefined || v === null || v === "") return row;
  return typeof v === "string" && EMAIL_SPACE.test(v) ? row : { ...row, [col]: null };
}

/** A checked file: where it goes and under which type, or why it is refused. */
export type FileVerdict =
  | { ok: true; key: string; contentType: string; row?: Row; onlyIfAbsent?: boolean }
  | { ok: false; reason: string };

/** Checks an attachment's bytes against its row (sha256 unless it was a converted HEIC; sniffed type; pixels). */
export async function checkAttachmentFile(row: Row, bytes: Uint8Array): Promise<FileVerdict> {
  const family = sniff(bytes);
  if (!family || !STORED_FAMILIES.includes(family))
    return { ok: false, reason: "the file is not a JPEG, PNG, WebP or PDF" };
  const size = imageSize(bytes);
  if (size && size.width * size.height > MAX_PIXELS)
    return { ok: false, reason: `the image is ${size.width} × ${size.height} pixels, over the limit` };
  const converted = FAMILIES.heic.extensions.includes(extensionOf(String(row.original_filename ?? "")));
  if (!converted && (await sha256Hex(bytes)) !== row.sha256)
    return { ok: false, reason: "the file's bytes do not match its sha256" };
  const derived = deriveAttachment({ ...row, size_bytes: bytes.byteLength }, family);
  if (typeof derived === "string") return { ok: false, reason: derived };
  return { ok: true, key: String(derived.r2_key), contentType: String(derived.content_type), row: derived };
}

export async function checkStatementFile(row: Row, bytes: Uint8Array): Promise<FileVerdict> {
  if ((await sha256Hex(bytes)) !== row.file_sha256)
    return { ok: false, reason: "the statement file's bytes do not match its file_sha256" };
  return { ok: true, key: String(row.r2_key), contentType: CONTENT_TYPES[row.file_kind as FileKind] };
}

/** A hash-named email must hash to its name; an older-style name is only ever filled, never overwritten. */
export async function checkEmailFile(key: string, bytes: Uint8Array): Promise<FileVerdict> {
  const m = EMAIL_KEY.exec(key);
  if (!m)
    return EMAIL_SPACE.test(key)
      ? { ok: true, key, contentType: "message/rfc822", onlyIfAbsent: true }
      : { ok: false, reason: "not a raw-email name" };
  if ((await sha256Hex(bytes)).slice(0, 16) !== m[2])
    return { ok: false, reason: "the raw email's bytes do not match its name" };
  return { ok: true, key, contentType: "message/rfc822" };
}
