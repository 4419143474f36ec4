/**
 * A zip written across several Worker invocations (the stepped backup): everything a later step
 * needs to go on is in `ZipState` (plain JSON), so a step can stop between any two pieces, even in
 * the middle of an entry. An entry's deflate stream is continued by a fresh compressor after a sync
 * flush (a byte-aligned, non-final end: DEFLATE allows a new stream to follow it), its CRC-32 is
 * carried as a number. Entries carry a data descriptor, as fflate's streaming Zip writes them, so
 * the restore's streaming reader reads both alike. The bytes go to `out` as they are made.
 */
import { Deflate } from "fflate";

const enc = new TextEncoder();

/** An entry's central-directory record. */
interface EntryRecord {
  /** name */
  n: string;
  /** CRC-32, compressed size, uncompressed size, local header offset */
  c: number;
  z: number;
  u: number;
  o: number;
}

export interface ZipState {
  /** Bytes written so far (the next local header's offset). */
  offset: number;
  /** DOS date and time of every entry (the build's start). */
  dos: [number, number];
  done: EntryRecord[];
  /** The entry still being written, with its level. */
  open: (EntryRecord & { level: 0 | 6 }) | null;
}

export const newZipState = (at: Date): ZipState => ({ offset: 0, dos: dosTime(at), done: [], open: null });

function dosTime(d: Date): [number, number] {
  const date =
    ((Math.max(1980, d.getUTCFullYear()) - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate();
  const time = (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1);
  return [date, time];
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[i] = c;
  }
  return t;
})();

/** CRC-32 of `bytes` continuing from `crc` (0 to start). */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** Flags: sizes in a data descriptor (bit 3), UTF-8 name (bit 11). */
const FLAGS = 0x0808;

export class SteppedZip {
  private deflate: Deflate | null = null;

  constructor(
    readonly state: ZipState,
    private readonly out: (bytes: Uint8Array) => void,
  ) {}

  private emit(bytes: Uint8Array) {
    this.state.offset += bytes.length;
    this.out(bytes);
  }

  /** The compressor of the open entry (a fresh one when this step has not made it yet). */
  private compressor(): Deflate {
    const open = this.state.open;
    if (!open) throw new Error("no zip entry is open");
    if (!this.deflate) {
      this.deflate = new Deflate({ level: open.level }, (chunk) => {
        open.z += chunk.length;
        this.emit(chunk);
      });
    }
    return this.deflate;
  }

  /** Starts an entry (the one open before must have ended). */
  begin(name: string, level: 0 | 6 = 6): void {
    if (this.state.open) throw new Error("a zip entry is still open");
    const n = enc.encode(name);
    const [date, time] = this.state.dos;
    const h = new DataView(new ArrayBuffer(30));
    h.setUint32(0, 0x04034b50, true);
    h.setUint16(4, 20, true);
    h.setUint16(6, FLAGS, true);
    h.setUint16(8, 8, true);
    h.setUint16(10, time, true);
    h.setUint16(12, date, true);
    h.setUint16(26, n.length, true);
    this.state.open = { n: name, c: 0, z: 0, u: 0, o: this.state.offset, level };
    this.emit(new Uint8Array(h.buffer));
    this.emit(n);
  }

  /** Adds to the open entry. */
  add(chunk: Uint8Array | string): void {
    const bytes = typeof chunk === "string" ? enc.encode(chunk) : chunk;
    const open = this.state.open!;
    open.c = crc32(bytes, open.c);
    open.u += bytes.length;
    this.compressor().push(bytes);
  }

  /** Ends the open entry (its data descriptor follows the data). */
  end(): void {
    const open = this.state.open;
    if (!open) throw new Error("no zip entry is open");
    this.compressor().push(new Uint8Array(0), true);
    this.deflate = null;
    const d = new DataView(new ArrayBuffer(16));
    d.setUint32(0, 0x08074b50, true);
    d.setUint32(4, open.c, true);
    d.setUint32(8, open.z, true);
    d.setUint32(12, open.u, true);
    const { level: _, ...record } = open;
    this.state.open = null;
    this.state.done.push(record);
    this.emit(new Uint8Array(d.buffer));
  }

  /**
   * Ends this step: an open entry's compressed bytes so far are written out, ending byte-aligned
   * with an empty non-final stored block (a sync flush), so a fresh compressor may go on after it.
   * fflate 0.8's own flush(true) misplaces that block when the last byte is partly filled (it
   * passes the whole bit state as the position): the stream is unreadable in about 1 case in 6
   * (test/unit/lib/zip-steps.test.ts), so the block is written here from the pending bits.
   */
  suspend(): void {
    const d = this.deflate;
    this.deflate = null;
    if (!d) return;
    d.flush(false);
    // fflate's pending bits: the last byte's value << 3 | how many of its bits are used.
    const r = (d as unknown as { s: { r?: number } }).s.r ?? 0;
    const tail = (r & 7) > 5 ? [r >> 3, 0] : [r >> 3];
    const block = Uint8Array.of(...tail, 0, 0, 0xff, 0xff);
    this.state.open!.z += block.length;
    this.emit(block);
  }

  /** Writes the central directory and its end record: the archive is complete. */
  finish(): void {
    if (this.state.open) this.end();
    const start = this.state.offset;
    const [date, time] = this.state.dos;
    for (const e of this.state.done) {
      const n = enc.encode(e.n);
      const h = new DataView(new ArrayBuffer(46));
      h.setUint32(0, 0x02014b50, true);
      h.setUint16(4, 20, true);
      h.setUint16(6, 20, true);
      h.setUint16(8, FLAGS, true);
      h.setUint16(10, 8, true);
      h.setUint16(12, time, true);
      h.setUint16(14, date, true);
      h.setUint32(16, e.c, true);
      h.setUint32(20, e.z, true);
      h.setUint32(24, e.u, true);
      h.setUint16(28, n.length, true);
      h.setUint32(42, e.o, true);
      this.emit(new Uint8Array(h.buffer));
      this.emit(n);
    }
    const size = this.state.offset - start;
    const end = new DataView(new ArrayBuffer(22));
    end.setUint32(0, 0x06054b50, true);
    end.setUint16(8, this.state.done.length, true);
    end.setUint16(10, this.state.done.length, true);
    end.setUint32(12, size, true);
    end.setUint32(16, start, true);
    this.emit(new Uint8Array(end.buffer));
  }
}
