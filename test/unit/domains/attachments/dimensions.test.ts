import { describe, expect, it } from "vitest";
import { checkPixels, imageSize, MAX_PIXELS } from "../../../../src/domains/attachments/dimensions";
import { fixtureBytes } from "../../../fixtures/receipts/node-files.mjs";

const le16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const le24 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

describe("image dimensions from the header (no decoding)", () => {
  it("reads the real JPEG, PNG and WebP receipts (360 × 420)", () => {
    for (const name of ["receipt.jpg", "receipt.png", "receipt.webp"])
      expect(imageSize(fixtureBytes(name)), name).toEqual({ width: 360, height: 420 });
  });

  it("reads GIF, WebP VP8X and VP8L headers", () => {
    const gif = new Uint8Array([...ascii("GIF89a"), ...le16(640), ...le16(480), 0, 0, 0]);
    expect(imageSize(gif)).toEqual({ width: 640, height: 480 });
    const vp8x = new Uint8Array(30);
    vp8x.set([...ascii("RIFF"), 0, 0, 0, 0, ...ascii("WEBPVP8X")]);
    vp8x.set([...le24(99_999), ...le24(49_999)], 24);
    expect(imageSize(vp8x)).toEqual({ width: 100_000, height: 50_000 });
    const vp8l = new Uint8Array(30);
    vp8l.set([...ascii("RIFF"), 0, 0, 0, 0, ...ascii("WEBPVP8L")]);
    const bits = (16383 & 0x3fff) | ((9 & 0x3fff) << 14);
    vp8l.set([0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >>> 24) & 0xff], 20);
    expect(imageSize(vp8l)).toEqual({ width: 16384, height: 10 });
  });

  it("finds a JPEG's SOF after other segments, and names no size when there is none", () => {
    const jpeg = new Uint8Array([
      0xff,
      0xd8,
      0xff,
      0xe0,
      0,
      4,
      0,
      0,
      0xff,
      0xc2,
      0,
      11,
      8,
      ...[0x4e, 0x20],
      ...[0x75, 0x30],
      3,
    ]);
    expect(imageSize(jpeg)).toEqual({ width: 30_000, height: 20_000 });
    expect(imageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBeNull();
    expect(imageSize(new Uint8Array([1, 2, 3]))).toBeNull();
  });

  it("refuses above the cap in words, accepts at it", () => {
    const png = (w: number, h: number) => {
      const b = new Uint8Array(33);
      b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, ...ascii("IHDR")]);
      new DataView(b.buffer).setUint32(16, w);
      new DataView(b.buffer).setUint32(20, h);
      return b;
    };
    expect(() => checkPixels(png(10_000, MAX_PIXELS / 10_000))).not.toThrow();
    expect(() => checkPixels(png(10_000, MAX_PIXELS / 10_000 + 1))).toThrow(
      /\(50.0 megapixels\); the limit is 50 megapixels/,
    );
  });
});
