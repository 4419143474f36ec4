/**
 * A baseline JPEG encoder (ITU T.81), written here so the Worker needs no JPEG codec's WebAssembly
 * heap (mozjpeg's was ~50 MB for a 2048 px image, the largest single cost of a HEIC conversion).
 *
 * What it writes: JFIF APP0, 8-bit sequential DCT (SOF0), YCbCr with 4:2:0 chroma (one 16×16 MCU
 * = four luma blocks + one Cb + one Cr), the Annex K example quantization tables scaled by quality
 * the way most encoders do, and the Annex K Huffman tables (no per-image optimisation: that would
 * mean buffering every coefficient). It reads the RGBA buffer one MCU at a time and appends to a
 * growing byte array, so its working memory is a few KB besides the output.
 */

/** Annex K.1 / K.2: the luminance and chrominance quantization tables, in natural (row) order. */
const LUMA_Q = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22,
  29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103,
  121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
/** K.2 is 99 everywhere but its top-left 4×4 corner. */
const CHROMA_CORNER = [17, 18, 24, 47, 18, 21, 26, 66, 24, 26, 56, 99, 47, 66, 99, 99];
const CHROMA_Q = Array.from({ length: 64 }, (_, i) =>
  i >> 3 < 4 && (i & 7) < 4 ? CHROMA_CORNER[(i >> 3) * 4 + (i & 7)]! : 99,
);

/** Annex K.3 / K.5: each table as the count of codes per length (1–16 bits), then the symbols. */
interface HuffSpec {
  counts: number[];
  symbols: number[];
}
const DC_LUMA: HuffSpec = {
  counts: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
  symbols: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
};
const DC_CHROMA: HuffSpec = {
  counts: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0],
  symbols: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
};
/**
 * An AC table's symbols: its shorter codes' symbols as listed, then (its 16-bit codes) every other
 * symbol an AC table holds (EOB, ZRL, run << 4 | size for sizes 1–10) in ascending order.
 */
function acTable(counts: number[], head: number[]): HuffSpec {
  const all = [0x00, 0xf0];
  for (let run = 0; run < 16; run++) for (let size = 1; size <= 10; size++) all.push((run << 4) | size);
  const rest = all.filter((x) => !head.includes(x)).sort((a, b) => a - b);
  return { counts, symbols: [...head, ...rest] };
}
const AC_LUMA = acTable(
  [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d],
  [
    0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22,
    0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33,
    0x62, 0x72, 0x82,
  ],
);
const AC_CHROMA = acTable(
  [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
  [
    0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13,
    0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0, 0x15, 0x62,
    0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1,
  ],
);
export const HUFFMAN_TABLES = { DC_LUMA, DC_CHROMA, AC_LUMA, AC_CHROMA };

/** ZIGZAG[k] = the natural (row-major) index of the k-th coefficient in zig-zag order (Figure A.6). */
const ZIGZAG = (() => {
  const order = new Uint8Array(64);
  let k = 0;
  for (let s = 0; s < 15; s++) {
    const lo = Math.max(0, s - 7);
    const hi = Math.min(s, 7);
    // Even diagonals run bottom-left → top-right (row falling), odd ones the other way.
    for (let i = 0; i <= hi - lo; i++) {
      const row = s % 2 === 0 ? hi - i : lo + i;
      order[k++] = row * 8 + (s - row);
    }
  }
  return order;
})();

/**
 * The FDCT of A.3.3 computed with Arai, Agui and Nakajima's factorisation (5 multiplies per 8
 * samples): its outputs are the true coefficients times 8·k(u)·k(v), with k(0) = 1 and
 * k(u) = √2·cos(uπ/16), so that factor is folded into the quantizer's reciprocal instead.
 */
const AAN = Float64Array.from({ length: 8 }, (_, u) =>
  u === 0 ? 1 : Math.SQRT2 * Math.cos((u * Math.PI) / 16),
);

/** The odd half's rotation constants: C2 = cos(π/8), C6 = cos(3π/8). */
const C6 = Math.cos((3 * Math.PI) / 8);
const C2_MINUS_C6 = Math.cos(Math.PI / 8) - C6;
const C2_PLUS_C6 = Math.cos(Math.PI / 8) + C6;

/** One 8-point pass over `d` at `at`, `at+step`, … `at+7·step`, in place. */
function fdct8(d: Float64Array, at: number, step: number) {
  const i0 = at;
  const i1 = at + step;
  const i2 = at + 2 * step;
  const i3 = at + 3 * step;
  const i4 = at + 4 * step;
  const i5 = at + 5 * step;
  const i6 = at + 6 * step;
  const i7 = at + 7 * step;
  const s07 = d[i0]! + d[i7]!;
  const d07 = d[i0]! - d[i7]!;
  const s16 = d[i1]! + d[i6]!;
  const d16 = d[i1]! - d[i6]!;
  const s25 = d[i2]! + d[i5]!;
  const d25 = d[i2]! - d[i5]!;
  const s34 = d[i3]! + d[i4]!;
  const d34 = d[i3]! - d[i4]!;
  // Even half: a 4-point DCT of the sums.
  const e0 = s07 + s34;
  const e3 = s07 - s34;
  const e1 = s16 + s25;
  const e2 = s16 - s25;
  d[i0] = e0 + e1;
  d[i4] = e0 - e1;
  const r = (e2 + e3) * Math.SQRT1_2;
  d[i2] = e3 + r;
  d[i6] = e3 - r;
  // Odd half: a rotation of the differences.
  const o0 = d34 + d25;
  const o1 = d25 + d16;
  const o2 = d16 + d07;
  const z5 = (o0 - o2) * C6;
  const z2 = C2_MINUS_C6 * o0 + z5;
  const z4 = C2_PLUS_C6 * o2 + z5;
  const z3 = o1 * Math.SQRT1_2;
  const z11 = d07 + z3;
  const z13 = d07 - z3;
  d[i5] = z13 + z2;
  d[i3] = z13 - z2;
  d[i1] = z11 + z4;
  d[i7] = z11 - z4;
}

/** The FDCT of a level-shifted block in place, each coefficient scaled by 8·k(u)·k(v) (see AAN). */
export function fdctScaled(b: Float64Array) {
  for (let row = 0; row < 64; row += 8) fdct8(b, row, 1);
  for (let col = 0; col < 8; col++) fdct8(b, col, 8);
}

/** A table scaled by quality (1–100, 50 = the table as printed), clamped to baseline's 1–255. */
export function scaledTable(base: readonly number[], quality: number): Uint8Array {
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const scale = q < 50 ? 5000 / q : 200 - q * 2;
  return Uint8Array.from(base, (v) => Math.min(255, Math.max(1, Math.floor((v * scale + 50) / 100))));
}

/** Code and length per symbol (Annex C: codes assigned in order of length, counting up). */
function huffmanCodes(spec: HuffSpec) {
  const code = new Uint16Array(256);
  const size = new Uint8Array(256);
  let next = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    for (let i = 0; i < spec.counts[len - 1]!; i++) {
      const sym = spec.symbols[k++]!;
      code[sym] = next++;
      size[sym] = len;
    }
    next <<= 1;
  }
  return { code, size };
}
type Codes = ReturnType<typeof huffmanCodes>;

/** The output: a byte array that doubles when full, and the entropy coder's bit accumulator. */
class Out {
  buf: Uint8Array;
  pos = 0;
  private acc = 0;
  private nbits = 0;
  constructor(initial: number) {
    this.buf = new Uint8Array(initial);
  }
  private room(n: number) {
    if (this.pos + n <= this.buf.length) return;
    const bigger = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    bigger.set(this.buf.subarray(0, this.pos));
    this.buf = bigger;
  }
  bytes(list: ArrayLike<number>) {
    this.room(list.length);
    for (let i = 0; i < list.length; i++) this.buf[this.pos++] = list[i]!;
  }
  /** A marker segment: FF xx, a 2-byte length that counts itself, the body. */
  segment(marker: number, body: ArrayLike<number>) {
    const n = body.length + 2;
    this.bytes([0xff, marker, n >> 8, n & 0xff]);
    this.bytes(body);
  }
  /** Appends the low `n` bits of `value` (n ≤ 16), stuffing a 00 after every FF byte (F.1.2.3). */
  bits(value: number, n: number) {
    this.acc = (this.acc << n) | (value & ((1 << n) - 1));
    this.nbits += n;
    while (this.nbits >= 8) {
      this.nbits -= 8;
      const byte = (this.acc >> this.nbits) & 0xff;
      this.room(2);
      this.buf[this.pos++] = byte;
      if (byte === 0xff) this.buf[this.pos++] = 0;
    }
    this.acc &= (1 << this.nbits) - 1;
  }
  /** Pads the last byte with 1 bits (F.1.2.3), so no partial code is left. */
  flush() {
    if (this.nbits > 0) this.bits(0x7f, 8 - this.nbits);
  }
}

/** The SSSS category of a coefficient: how many bits its magnitude takes. */
function category(v: number) {
  let a = v < 0 ? -v : v;
  let n = 0;
  while (a) {
    n++;
    a >>= 1;
  }
  return n;
}

/** Everything one encode needs, allocated once: working blocks and reciprocal quantizers. */
class BlockCoder {
  private readonly coef = new Int32Array(64);
  /** 1/(Q·8·k(u)·k(v)) per zig-zag position: quantizing also undoes the AAN scale. */
  private readonly recip: Float64Array;
  pred = 0;
  constructor(
    private readonly out: Out,
    table: Uint8Array,
    private readonly dc: Codes,
    private readonly ac: Codes,
  ) {
    this.recip = Float64Array.from(ZIGZAG, (n) => 1 / (table[n]! * 8 * AAN[n >> 3]! * AAN[n & 7]!));
  }

  /** FDCT (rows, then columns), quantize in zig-zag order, Huffman-code (F.1.2). `b` is level-shifted. */
  encode(b: Float64Array) {
    fdctScaled(b);
    const q = this.coef;
    for (let k = 0; k < 64; k++) {
      const x = b[ZIGZAG[k]!]! * this.recip[k]!;
      q[k] = x < 0 ? -Math.floor(0.5 - x) : Math.floor(x + 0.5);
    }
    // 8-bit samples keep every AC coefficient within ±1023 (category 10, the tables' largest);
    // the clamp only guards against float rounding at quality 100.
    for (let k = 1; k < 64; k++) q[k] = Math.max(-1023, Math.min(1023, q[k]!));
    const out = this.out;
    const diff = q[0]! - this.pred;
    this.pred = q[0]!;
    let s = category(diff);
    out.bits(this.dc.code[s]!, this.dc.size[s]!);
    if (s) out.bits(diff < 0 ? diff - 1 : diff, s);
    let run = 0;
    for (let k = 1; k < 64; k++) {
      const v = q[k]!;
      if (v === 0) {
        run++;
        continue;
      }
      for (; run > 15; run -= 16) out.bits(this.ac.code[0xf0]!, this.ac.size[0xf0]!);
      s = category(v);
      const sym = (run << 4) | s;
      out.bits(this.ac.code[sym]!, this.ac.size[sym]!);
      out.bits(v < 0 ? v - 1 : v, s);
      run = 0;
    }
    if (run > 0) out.bits(this.ac.code[0]!, this.ac.size[0]!);
  }
}

function huffmanSegment(specs: [number, HuffSpec][]) {
  const body: number[] = [];
  for (const [id, spec] of specs) body.push(id, ...spec.counts, ...spec.symbols);
  return body;
}

/**
 * RGBA (4 bytes a pixel, alpha ignored: receipts are opaque) → a baseline JFIF JPEG. Edges that
 * do not fill a 16×16 MCU repeat the last row/column, which keeps them free of ringing.
 */
export function encodeJpeg(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  quality = 85,
  /** Filled in when given: the output buffer's final capacity (the encoder's working memory). */
  stats?: { bufferBytes: number },
): Uint8Array {
  if (!(width >= 1 && height >= 1 && width <= 65535 && height <= 65535))
    throw new RangeError(`cannot encode a ${width}×${height} JPEG`);
  if (rgba.length < width * height * 4)
    throw new RangeError("the RGBA buffer is smaller than width×height×4");
  const lq = scaledTable(LUMA_Q, quality);
  const cq = scaledTable(CHROMA_Q, quality);
  // A first guess at the size (about 1.5 bits a pixel at quality 85): it doubles if short.
  const out = new Out(Math.max(4096, Math.ceil((width * height) / 5)));
  out.bytes([0xff, 0xd8]);
  // JFIF 1.01, no thumbnail, 1:1 pixel aspect.
  out.segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  out.segment(0xdb, [0, ...Array.from(ZIGZAG, (n) => lq[n]!), 1, ...Array.from(ZIGZAG, (n) => cq[n]!)]);
  // SOF0: precision 8, size, three components (id, H<<4|V, quant table); luma 2×2 → 4:2:0.
  const u16 = (n: number) => [n >> 8, n & 0xff];
  out.segment(0xc0, [8, ...u16(height), ...u16(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  out.segment(
    0xc4,
    huffmanSegment([
      [0x00, DC_LUMA],
      [0x10, AC_LUMA],
      [0x01, DC_CHROMA],
      [0x11, AC_CHROMA],
    ]),
  );
  // SOS: three components (id, DC<<4|AC table), full spectral range, no approximation.
  out.segment(0xda, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]);

  const yc = new BlockCoder(out, lq, huffmanCodes(DC_LUMA), huffmanCodes(AC_LUMA));
  const chromaDc = huffmanCodes(DC_CHROMA);
  const chromaAc = huffmanCodes(AC_CHROMA);
  const cbc = new BlockCoder(out, cq, chromaDc, chromaAc);
  const crc = new BlockCoder(out, cq, chromaDc, chromaAc);
  // One MCU's samples: luma 16×16, and Cb/Cr summed over each 2×2 before averaging.
  const lum = new Float64Array(256);
  const cbSum = new Float64Array(64);
  const crSum = new Float64Array(64);
  const block = new Float64Array(64);
  const cols = new Int32Array(16);
  for (let my = 0; my < height; my += 16) {
    for (let mx = 0; mx < width; mx += 16) {
      for (let i = 0; i < 16; i++) cols[i] = Math.min(mx + i, width - 1) * 4;
      cbSum.fill(0);
      crSum.fill(0);
      for (let j = 0; j < 16; j++) {
        const row = Math.min(my + j, height - 1) * width * 4;
        const half = (j >> 1) * 8;
        for (let i = 0; i < 16; i++) {
          const p = row + cols[i]!;
          const r = rgba[p]!;
          const g = rgba[p + 1]!;
          const b = rgba[p + 2]!;
          // JFIF's full-range BT.601 matrix; luma level-shifted by 128 here (A.3.1).
          lum[j * 16 + i] = 0.299 * r + 0.587 * g + 0.114 * b - 128;
          const c = half + (i >> 1);
          cbSum[c] = cbSum[c]! - 0.168736 * r - 0.331264 * g + 0.5 * b;
          crSum[c] = crSum[c]! + 0.5 * r - 0.418688 * g - 0.081312 * b;
        }
      }
      // Four luma blocks in the order of A.2.3: left-to-right, top-to-bottom.
      for (let k = 0; k < 4; k++) {
        const base = (k >> 1) * 128 + (k & 1) * 8;
        for (let j = 0; j < 8; j++) for (let i = 0; i < 8; i++) block[j * 8 + i] = lum[base + j * 16 + i]!;
        yc.encode(block);
      }
      // Chroma's +128 offset and the level shift cancel: the average is already centred on 0.
      for (let i = 0; i < 64; i++) block[i] = cbSum[i]! / 4;
      cbc.encode(block);
      for (let i = 0; i < 64; i++) block[i] = crSum[i]! / 4;
      crc.encode(block);
    }
  }
  out.flush();
  out.bytes([0xff, 0xd9]);
  if (stats) stats.bufferBytes = out.buf.byteLength;
  return out.buf.slice(0, out.pos);
}
