/**
 * Which files an attachment may be (pure). A file is accepted only when three witnesses agree on
 * one type: its extension, the content type the client declared, and its own leading bytes. The
 * stored content type is then ours, from this table, never the client's string.
 */

export type FileFamily = "jpeg" | "png" | "webp" | "heic" | "pdf";

interface FamilySpec {
  extensions: readonly string[];
  declared: readonly string[];
  /** The content type we store and serve. */
  contentType: string;
  extension: string;
}

export const FAMILIES: Readonly<Record<FileFamily, FamilySpec>> = {
  jpeg: {
    extensions: ["jpg", "jpeg", "jpe"],
    declared: ["image/jpeg", "image/jpg", "image/pjpeg"],
    contentType: "image/jpeg",
    extension: "jpg",
  },
  png: { extensions: ["png"], declared: ["image/png"], contentType: "image/png", extension: "png" },
  webp: { extensions: ["webp"], declared: ["image/webp"], contentType: "image/webp", extension: "webp" },
  heic: {
    extensions: ["heic", "heif", "hif"],
    declared: ["image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence"],
    contentType: "image/heic",
    extension: "heic",
  },
  pdf: {
    extensions: ["pdf"],
    declared: ["application/pdf", "application/x-pdf"],
    contentType: "application/pdf",
    extension: "pdf",
  },
};

export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** Declared types that say nothing (some browsers send these for HEIC); the other two witnesses decide. */
const UNDECLARED = new Set(["", "application/octet-stream", "binary/octet-stream"]);

/** ISO-BMFF brands of HEIC/HEIF stills and sequences (libheif's list). */
const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1"]);

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

/** The family the file's own bytes say it is, or null. */
export function sniff(bytes: Uint8Array): FileFamily | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return "png";
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return "webp";
  if (bytes.length >= 5 && ascii(bytes, 0, 5) === "%PDF-") return "pdf";
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === "ftyp" && HEIF_BRANDS.has(ascii(bytes, 8, 12)))
    return "heic";
  return null;
}

export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot < 0
    ? ""
    : filename
        .slice(dot + 1)
        .trim()
        .toLowerCase();
}

type FileCheck = { ok: true; family: FileFamily } | { ok: false; reason: string };

const accepted = "JPEG, PNG, WebP, HEIC/HEIF or PDF";

/** Extension AND declared type AND magic bytes must name the same family. */
export function checkFile(filename: string, declaredType: string, bytes: Uint8Array): FileCheck {
  const ext = extensionOf(filename);
  const byExt = (Object.keys(FAMILIES) as FileFamily[]).find((f) => FAMILIES[f].extensions.includes(ext));
  if (!byExt) return { ok: false, reason: `The file name must end in a ${accepted} extension` };
  const declared = declaredType.split(";")[0]!.trim().toLowerCase();
  if (!UNDECLARED.has(declared) && !FAMILIES[byExt].declared.includes(declared)) {
    return { ok: false, reason: `The declared type ${declared} does not match the .${ext} extension` };
  }
  const bySniff = sniff(bytes);
  if (bySniff !== byExt) {
    return { ok: false, reason: `The file's contents are not a ${byExt.toUpperCase()} file (.${ext})` };
  }
  return { ok: true, family: byExt };
}
