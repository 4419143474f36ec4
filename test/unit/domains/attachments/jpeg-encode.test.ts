// Our baseline JPEG encoder, checked by a real decoder: sharp (libvips + libjpeg) decodes what it
// writes, and the pixels are compared with the source. libjpeg's own encoder at the same quality and
// subsampling is the yardstick for how close a JPEG can be.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { decodeShrunk, encodeDecoded } from "../../../../src/domains/attachments/heic-decode";
import {
  encodeJpeg,
  fdctScaled,
  HUFFMAN_TABLES,
  scaledTable,
} from "../../../../src/domains/attachments/jpeg-encode";
import { fixtureBytes, libheifModule } from "../../../fixtures/receipts/node-files.mjs";

/** A receipt-like test card: colour gradients, dark text-like strokes, solid colour patches. */
function card(w: number, h: number): Uint8Array {
  const px = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      let r: number = (x * 255) / Math.max(1, w - 1);
      let g: number = (y * 255) / Math.max(1, h - 1);
      let b: number = ((x + y) * 255) / Math.max(1, w + h - 2);
      // Solid patches in the right third: red, green, blue, grey in 64 px bands.
      const patches = [
        [200, 30, 40],
        [20, 160, 60],
        [30, 60, 190],
        [128, 128, 128],
      ] as const;
      if (x > (w * 2) / 3) [r, g, b] = patches[(y >> 6) % 4]!;
      // "Text": 2 px dark strokes on paper in the left third, like printed characters.
      if (x < w / 3) {
        const ink = (y % 24 < 16 && (x % 9 < 2 || y % 24 < 2)) || (y % 24 === 8 && x % 9 < 6);
        [r, g, b] = ink ? ([30, 30, 34] as const) : ([246, 244, 236] as const);
      }
      px[o] = r;
      px[o + 1] = g;
      px[o + 2] = b;
      px[o + 3] = 255;
    }
  }
  return px;
}

/** Mean absolute error per channel (R, G, B) between a decoded JPEG and the RGBA source. */
async function errorOf(jpeg: Uint8Array, src: Uint8Array, w: number, h: number) {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  expect({ width: info.width, height: info.height, channels: info.channels }).toEqual({
    width: w,
    height: h,
    channels: 3,
  });
  const sum = [0, 0, 0];
  for (let i = 0; i < w * h; i++)
    for (let c = 0; c < 3; c++) sum[c]! += Math.abs(data[i * 3 + c]! - src[i * 4 + c]!);
  return sum.map((s) => s / (w * h));
}

async function libjpegError(src: Uint8Array, w: number, h: number) {
  const ref = await sharp(src, { raw: { width: w, height: h, channels: 4 } })
    .removeAlpha()
    .jpeg({ quality: 85, chromaSubsampling: "4:2:0" })
    .toBuffer();
  return errorOf(new Uint8Array(ref), src, w, h);
}

describe("encodeJpeg", () => {
  it.each([
    [1, 1],
    [7, 9],
    [16, 16],
    [17, 33],
    [640, 480],
    [2049, 1537],
  ])("a %i×%i test card decodes to the same size and close to the source (quality 85)", async (w, h) => {
    const src = card(w, h);
    const jpeg = encodeJpeg(src, w, h, 85);
    const meta = await sharp(jpeg).metadata();
    expect(meta).toMatchObject({
      format: "jpeg",
      width: w,
      height: h,
      isProgressive: false,
      chromaSubsampling: "4:2:0",
    });
    const ours = await errorOf(jpeg, src, w, h);
    const theirs = await libjpegError(src, w, h);
    for (let c = 0; c < 3; c++) {
      // Tiny images are all edge (chroma shared by 2×2 pixels): the bound is libjpeg's own error there.
      if (w * h >= 640 * 480) expect(ours[c], `channel ${c}: ${ours} vs libjpeg ${theirs}`).toBeLessThan(3);
      expect(ours[c], `channel ${c}: ${ours} vs libjpeg ${theirs}`).toBeLessThanOrEqual(
        theirs[c]! * 1.15 + 1,
      );
    }
  });

  it("the fast FDCT equals A.3.3's definition once its 8·k(u)·k(v) scale is divided out", () => {
    const block = Float64Array.from({ length: 64 }, (_, i) => ((i * 37) % 256) - 128);
    const want = new Float64Array(64);
    const c = (u: number) => (u === 0 ? Math.SQRT1_2 : 1);
    for (let v = 0; v < 8; v++)
      for (let u = 0; u < 8; u++) {
        let sum = 0;
        for (let y = 0; y < 8; y++)
          for (let x = 0; x < 8; x++)
            sum +=
              block[y * 8 + x]! *
              Math.cos(((2 * x + 1) * u * Math.PI) / 16) *
              Math.cos(((2 * y + 1) * v * Math.PI) / 16);
        want[v * 8 + u] = (c(u) * c(v) * sum) / 4;
      }
    const k = (u: number) => (u === 0 ? 1 : Math.SQRT2 * Math.cos((u * Math.PI) / 16));
    fdctScaled(block);
    for (let i = 0; i < 64; i++) expect(block[i]! / (8 * k(i >> 3) * k(i & 7))).toBeCloseTo(want[i]!, 9);
  });

  it("solid colours come back within a level or two, edges included", async () => {
    for (const [r, g, b] of [
      [255, 255, 255],
      [0, 0, 0],
      [244, 241, 232],
      [200, 30, 40],
    ] as const) {
      const src = new Uint8Array(37 * 21 * 4);
      for (let i = 0; i < src.length; i += 4) src.set([r, g, b, 255], i);
      const err = await errorOf(encodeJpeg(src, 37, 21, 85), src, 37, 21);
      for (const e of err) expect(e).toBeLessThan(1.5);
    }
  });

  it("writes SOI, JFIF APP0, two DQTs, SOF0 with the size, four Huffman tables, SOS … EOI", () => {
    const jpeg = encodeJpeg(card(300, 200), 300, 200, 85);
    const markers: number[] = [];
    let i = 2;
    while (jpeg[i] === 0xff && jpeg[i + 1] !== 0xda) {
      markers.push(jpeg[i + 1]!);
      if (jpeg[i + 1] === 0xc0) {
        expect([...jpeg.subarray(i + 4, i + 19)]).toEqual([
          8, 0, 200, 1, 44, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
        ]);
      }
      i += 2 + ((jpeg[i + 2]! << 8) | jpeg[i + 3]!);
    }
    expect([...jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect(markers).toEqual([0xe0, 0xdb, 0xc0, 0xc4]);
    expect(new TextDecoder().decode(jpeg.subarray(6, 11))).toBe("JFIF\0");
    expect([...jpeg.subarray(-2)]).toEqual([0xff, 0xd9]);
    // Inside the entropy-coded data every FF is stuffed with a 00 (no restart markers are written).
    for (let k = i + 14; k < jpeg.length - 2; k++) if (jpeg[k] === 0xff) expect(jpeg[k + 1]).toBe(0);
  });

  it("the Annex K Huffman tables hold every symbol once: 12 DC categories; EOB, ZRL and run/size 0–15 × 1–10", () => {
    const ac = [0x00, 0xf0];
    for (let run = 0; run < 16; run++) for (let size = 1; size <= 10; size++) ac.push((run << 4) | size);
    for (const [name, t] of Object.entries(HUFFMAN_TABLES)) {
      expect(
        t.counts.reduce((a, b) => a + b),
        name,
      ).toBe(t.symbols.length);
      const want = name.startsWith("DC") ? [...Array(12).keys()] : ac;
      expect(
        [...t.symbols].sort((a, b) => a - b),
        name,
      ).toEqual([...want].sort((a, b) => a - b));
    }
  });

  it("quality scales the tables (50 = as printed, clamped to 1–255) and the size follows", async () => {
    expect([...scaledTable([16, 11, 99], 50)]).toEqual([16, 11, 99]);
    expect([...scaledTable([16, 11, 99], 100)]).toEqual([1, 1, 1]);
    expect([...scaledTable([16, 11, 99], 1)]).toEqual([255, 255, 255]);
    expect([...scaledTable([16, 11, 99], 85)]).toEqual([5, 3, 30]);
    const src = card(320, 240);
    const sizes = [30, 85, 95].map((q) => encodeJpeg(src, 320, 240, q).byteLength);
    expect(sizes[0]).toBeLessThan(sizes[1]!);
    expect(sizes[1]).toBeLessThan(sizes[2]!);
    // Quality 100 (every quantizer 1) uses the tables' largest categories and still decodes, closer.
    const best = await errorOf(encodeJpeg(src, 320, 240, 100), src, 320, 240);
    const q85 = await errorOf(encodeJpeg(src, 320, 240, 85), src, 320, 240);
    for (let c = 0; c < 3; c++) expect(best[c]).toBeLessThan(q85[c]!);
  });

  it("refuses sizes a baseline JPEG cannot hold, and a buffer too small for them", () => {
    expect(() => encodeJpeg(new Uint8Array(0), 0, 1)).toThrow(RangeError);
    expect(() => encodeJpeg(new Uint8Array(4), 70_000, 1)).toThrow(RangeError);
    expect(() => encodeJpeg(new Uint8Array(4 * 5), 3, 2)).toThrow(/smaller/);
  });
});

describe("the Worker's HEIC path in Node (libheif → shrink → our encoder)", () => {
  it("a 12 MP HEIC becomes a 2048×1536 JPEG that decodes to the shrunk pixels", async () => {
    const heif = libheifModule();
    const heic = fixtureBytes("receipt-12mp.heic");
    const d = await decodeShrunk(heic, heif, Number.POSITIVE_INFINITY);
    if (!d.ok) throw new Error(`not decoded: ${JSON.stringify(d)}`);
    expect({ w: d.width, h: d.height, source: d.source }).toEqual({
      w: 2048,
      h: 1536,
      source: { width: 4032, height: 3024 },
    });
    const rgba = new Uint8Array(d.rgba.buffer.slice(0));
    const out = encodeDecoded(d);
    if (!out.ok) throw new Error("not encoded");
    const err = await errorOf(out.jpeg, rgba, 2048, 1536);
    for (const e of err) expect(e).toBeLessThan(3);
    // The encoder's working memory is its output buffer: well under 1% of mozjpeg's ~50 MB heap here.
    expect(out.memory.jpeg).toBeLessThan(4 * 1024 * 1024);
  });
});
