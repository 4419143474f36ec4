// A file name as shown to a person (never a storage key): one cleaner for every upload and restore.

/**
 * Control characters (C0, DEL, C1) and the bidirectional controls (U+061C, U+200E/F, U+202A-E,
 * U+2066-9) that make "invoice\u202Efdp.exe" read as "invoiceexe.pdf".
 */
export const UNSAFE_NAME_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The name as the person's device gave it, without any path, control or bidi characters, or excess length. */
export function cleanFilename(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  const clean = base.replace(UNSAFE_NAME_CHARS, "").trim();
  return clean.slice(-200);
}
