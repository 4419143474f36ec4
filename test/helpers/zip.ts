/**
 * Hand-made zip archives for restore tests: entries whose deflate bytes the test supplies (a bomb),
 * with declared sizes that may lie. Local headers, data, central directory, end record (APPNOTE 4.3).
 */
import { strToU8, zipSync } from "fflate";
import parts from "../fixtures/backups/bomb-parts.json";

export interface RawEntry {
  name: string;
  /** 0 stored, 8 deflate. */
  method: 0 | 8;
  data: Uint8Array;
  crc?: number;
  size: number;
}

const b64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/** ~1 MB of raw deflate that inflates to `mib` MiB of zeros (test/fixtures/backups/make-bomb.mjs). */
export function deflateBomb(mib: number): Uint8Array {
  const first = b64(parts.first);
  const next = b64(parts.next);
  const out = new Uint8Array(first.length + next.length * (mib - 1) + 2);
  out.set(first, 0);
  for (let i = 0; i < mib - 1; i++) out.set(next, first.length + i * next.length);
  out.set([0x03, 0x00], out.length - 2); // a final, empty fixed-Huffman block
  return out;
}

export function rawZip(entries: RawEntry[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = strToU8(e.name);
    const local = new Uint8Array(30 + name.length);
    const v = new DataView(local.buffer);
    v.setUint32(0, 0x04034b50, true);
    v.setUint16(4, 20, true);
    v.setUint16(8, e.method, true);
    v.setUint32(14, e.crc ?? 0, true);
    v.setUint32(18, e.data.length, true);
    v.setUint32(22, e.size >>> 0, true);
    v.setUint16(26, name.length, true);
    local.set(name, 30);
    const cd = new Uint8Array(46 + name.length);
    const c = new DataView(cd.buffer);
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, 20, true);
    c.setUint16(6, 20, true);
    c.setUint16(10, e.method, true);
    c.setUint32(16, e.crc ?? 0, true);
    c.setUint32(20, e.data.length, true);
    c.setUint32(24, e.size >>> 0, true);
    c.setUint16(28, name.length, true);
    c.setUint32(42, offset, true);
    cd.set(name, 46);
    chunks.push(local, e.data);
    central.push(cd);
    offset += local.length + e.data.length;
  }
  const cdSize = central.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const d = new DataView(end.buffer);
  d.setUint32(0, 0x06054b50, true);
  d.setUint16(8, entries.length, true);
  d.setUint16(10, entries.length, true);
  d.setUint32(12, cdSize, true);
  d.setUint32(16, offset, true);
  const all = [...chunks, ...central, end];
  const out = new Uint8Array(all.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of all) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** A backup zip made by hand in the layout format 1 used: the tables, then the manifest last. */
export function handBackup(
  tables: Record<string, unknown>,
  manifest: Record<string, unknown> = {},
): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const [k, v] of Object.entries(tables))
    files[k] = v instanceof Uint8Array ? v : strToU8(JSON.stringify(v));
  files["manifest.json"] = strToU8(
    JSON.stringify({ format: "finance-journal-backup", format_version: 1, ...manifest }),
  );
  return zipSync(files);
}
