/**
 * Image dimensions read from the file's own header (pure, no decoding): PNG's IHDR, JPEG's SOFn
 * segment, WebP's VP8/VP8L/VP8X chunk, GIF's logical screen. A file whose pixels would take more
 * memory to show than a receipt ever needs (a "decompression bomb": a few KB of PNG that decodes to
 * gigabytes) is refused before it is stored or served. A header we cannot read names no size: such
 * bytes are no image a browser can decode either.
 */
import { TooLarge } from "../../lib/errors";

/** 50 megapixels: above a 48 MP phone photo (8064 × 6048), far below what bombs declare. */
export const MAX_PIXELS = 50_000_000;

export interface Size {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) =>
  ((b[i]! << 24) >>> 0) + ((b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!);
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

function png(b: Uint8Array): Size | null {
  if (b.length < 24 || ascii(b, 12, 4) !== "IHDR") return null;
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

function gif(b: Uint8Array): Size | null {
  if (b.length < 10 || !/^GIF8[79]a$/.test(ascii(b, 0, 6))) return null;
  return { width: u16le(b, 6), height: u16le(b, 8) };
}

function webp(b: Uint8Array): Size | null {
  if (b.length < 30 || ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 4) !== "WEBP") return null;
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8X") return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  if (chunk === "VP8L" && b[20] === 0x2f) {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8 " && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  return null;
}

/** SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC). */
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function jpeg(b: Uint8Array): Size | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or start of scan before any SOF
    const len = u16be(b, i + 2);
    if (len < 2) return null;
    if (isSof(marker)) return i + 9 <= b.length ? { height: u16be(b, i + 5), width: u16be(b, i + 7) } : null;
    i += 2 + len;
  }
  return null;
}

/** The image's width and height from its header, or null when it names none. */
export function imageSize(bytes: Uint8Array): Size | null {
  return png(bytes) ?? jpeg(bytes) ?? webp(bytes) ?? gif(bytes);
}

/** A 413 in words when the header declares more than MAX_PIXELS. */
export function checkPixels(bytes: Uint8Array): void {
  const size = imageSize(bytes);
  if (!size) return;
  const pixels = size.width * size.height;
  if (pixels <= MAX_PIXELS) return;
  throw new TooLarge(
    `The image is ${size.width} × ${size.height} pixels (${(pixels / 1e6).toFixed(1)} megapixels); ` +
      `the limit is ${MAX_PIXELS / 1e6} megapixels`,
    { width: size.width, height: size.height, max_pixels: MAX_PIXELS },
  );
}
