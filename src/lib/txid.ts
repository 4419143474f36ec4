/**
 * tx_id: an opaque, URL-safe encoding of (ForwardedTo, DateFileName) that round-trips:
 * base64url of `ForwardedTo \n DateFileName` (neither part can hold a newline).
 */
const SEP = "\n";

export interface TxKey {
  forwardedTo: string;
  dateFileName: string;
}

export function encodeTxId(forwardedTo: string, dateFileName: string): string {
  const bytes = new TextEncoder().encode(`${forwardedTo}${SEP}${dateFileName}`);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** null for anything that is not a well-formed id. */
export function decodeTxId(txId: string): TxKey | null {
  if (!/^[A-Za-z0-9_-]{4,2000}$/.test(txId)) return null;
  try {
    const bin = atob(txId.replaceAll("-", "+").replaceAll("_", "/"));
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(bin, (ch) => ch.charCodeAt(0)),
    );
    const i = text.indexOf(SEP);
    if (i <= 0 || i === text.length - 1 || text.indexOf(SEP, i + 1) !== -1) return null;
    return { forwardedTo: text.slice(0, i), dateFileName: text.slice(i + 1) };
  } catch {
    return null;
  }
}
