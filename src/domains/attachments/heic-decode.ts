/**
 * HEIC/HEIF → JPEG for a Worker without the Images binding: libheif (WebAssembly) decodes, our own
 * TypeScript encoder (jpeg-encode.ts) writes the JPEG. libheif's compiled module is passed in, so
 * the same code runs in workerd (imported as `.wasm`, see heic-wasm.ts) and in Node
 * (test/fixtures/receipts/measure-heic.mjs).
 *
 * Memory is the constraint (a Worker isolate has 128 MB). What keeps the peak down:
 * - the size is read from the file's header (libheif's handle, no pixels) and refused first;
 * - libheif decodes to its native YCbCr 4:2:0 planes (1.5 bytes a pixel), never to RGB inside its
 *   heap (3–4 bytes a pixel more), and we read those planes in place;
 * - the downscale to a 2048 px long edge happens while converting to RGB, so the only RGBA buffer
 *   is the small one;
 * - each conversion gets a fresh libheif instance: a WASM heap never shrinks, so a cached one
 *   would hold the largest image's heap for the isolate's life. Nothing refers to it once the
 *   planes are shrunk, so its heap is garbage before the JPEG is written;
 * - the JPEG encoder is plain TypeScript working one 16×16 block at a time: besides its output it
 *   needs a few KB (mozjpeg's WASM heap was ~50 MB for the same 2048 px image).
 */
// libheif's emscripten glue, without its embedded-wasm "bundle" build: workerd in production
// refuses to compile WebAssembly from bytes at run time. Under nodejs_compat the glue takes its
// Node branch and reads `__dirname` (wrangler.toml defines one at build time).
import libheifFactory from "libheif-js/libheif-wasm/libheif.js";
import { encodeJpeg } from "./jpeg-encode";

interface HeicCodecs {
  heif: WebAssembly.Module;
}

/** The long edge of the stored JPEG: a receipt's smallest print stays legible well below it. */
export const MAX_EDGE = 2048;
/**
 * The largest image decoded here. Measured with this code (measure-heic.mjs), libheif's WASM memory
 * + the RGBA buffer + the JPEG's output, summed as if nothing were collected in between: 2 MP 24 MB,
 * 4 MP 32, 8 MP 49, 12 MP 68, 16 MP 84, 20 MP 103, 24 MP 120 (libheif takes ~4.5 bytes a pixel).
 * 16 MP takes an iPhone's 12 MP default and keeps the worst case near 85 MB, leaving the app's own
 * heap ~40 MB under the Worker's 128 MB.
 */
export const MAX_PIXELS = 16_000_000;
const JPEG_QUALITY = 85;

export type HeicOutcome =
  | {
      ok: true;
      jpeg: Uint8Array;
      width: number;
      height: number;
      source: { width: number; height: number };
      /** Bytes: libheif's WASM memory at its largest, the RGBA buffer, the JPEG's output buffer. */
      memory: { heif: number; rgba: number; jpeg: number };
    }
  | { ok: false; reason: "too_many_pixels"; width: number; height: number }
  | { ok: false; reason: "corrupt"; detail: string };

/**
 * The slice of libheif's C API used here, called directly (pointers into its heap): its embind
 * wrapper `heif_js_decode_image2` sizes 4:2:0 chroma views by the luma height and throws a
 * RangeError when a plane sits near the top of the heap.
 */
interface Libheif {
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  _malloc(size: number): number;
  _free(ptr: number): void;
  _heif_context_alloc(): number;
  _heif_context_free(ctx: number): void;
  /** Functions returning `struct heif_error` take a pointer to it first (wasm32 ABI). */
  _heif_context_read_from_memory_without_copy(
    err: number,
    ctx: number,
    data: number,
    size: number,
    opts: number,
  ): void;
  _heif_context_get_primary_image_handle(err: number, ctx: number, out: number): void;
  _heif_image_handle_get_width(handle: number): number;
  _heif_image_handle_get_height(handle: number): number;
  _heif_image_handle_release(handle: number): void;
  _heif_decode_image(
    err: number,
    handle: number,
    out: number,
    cs: number,
    chroma: number,
    opts: number,
  ): void;
  _heif_image_get_width(image: number, channel: number): number;
  _heif_image_get_height(image: number, channel: number): number;
  _heif_image_get_plane_readonly(image: number, channel: number, stride: number): number;
  _heif_image_get_bits_per_pixel_range(image: number, channel: number): number;
  _heif_image_release(image: number): void;
}
const YCBCR = 0;
const CHROMA_420 = 1;
const [Y, CB, CR] = [0, 1, 2];

interface Plane {
  data: Uint8Array;
  stride: number;
  width: number;
  height: number;
}
type Factory = (options: Record<string, unknown>) => unknown;

/** An emscripten module instantiated from a compiled WebAssembly.Module (never from bytes). */
function instantiate<T>(factory: Factory, module: WebAssembly.Module) {
  let memory: WebAssembly.Memory | undefined;
  const ready = new Promise<T>((resolve, reject) => {
    const options: Record<string, unknown> = {
      noInitialRun: true,
      print: () => {},
      printErr: () => {},
      instantiateWasm(
        imports: WebAssembly.Imports,
        done: (i: WebAssembly.Instance, m: WebAssembly.Module) => void,
      ) {
        const instance = new WebAssembly.Instance(module, imports);
        memory = findMemory(instance, imports);
        done(instance, module);
        return instance.exports;
      },
      onRuntimeInitialized: () => resolve(options as T),
      onAbort: (what: unknown) => reject(new Error(`WebAssembly aborted: ${String(what)}`)),
    };
    const made = factory(options) as { then?: unknown; catch?: (f: (e: unknown) => void) => void };
    if (typeof made?.then === "function") made.catch?.(reject);
  });
  return {
    ready,
    memoryBytes: () => memory?.buffer.byteLength ?? 0,
    memoryRef: () => (memory ? new WeakRef(memory) : undefined),
  };
}

function findMemory(instance: WebAssembly.Instance, imports: WebAssembly.Imports) {
  const all = [
    ...Object.values(instance.exports),
    ...Object.values(imports).flatMap((ns) => Object.values(ns)),
  ];
  return all.find((v): v is WebAssembly.Memory => v instanceof WebAssembly.Memory);
}

/**
 * YCbCr 4:2:0 planes → RGBA at (ow, oh), averaging each output pixel's box of source pixels.
 * The matrix is BT.601 full range: what iPhones and libheif's encoder write for still photos.
 */
function shrinkYuv420(y: Plane, cb: Plane, cr: Plane, ow: number, oh: number): Uint8ClampedArray {
  const w = y.width;
  const h = y.height;
  const out = new Uint8ClampedArray(ow * oh * 4);
  const xs = new Int32Array(ow + 1);
  for (let i = 0; i <= ow; i++) xs[i] = Math.floor((i * w) / ow);
  const sums = new Float64Array(ow * 3);
  for (let oy = 0; oy < oh; oy++) {
    const y0 = Math.floor((oy * h) / oh);
    const y1 = Math.max(y0 + 1, Math.floor(((oy + 1) * h) / oh));
    sums.fill(0);
    for (let sy = y0; sy < y1; sy++) {
      const yRow = sy * y.stride;
      const cRow = (sy >> 1) * cb.stride;
      const dRow = (sy >> 1) * cr.stride;
      for (let ox = 0; ox < ow; ox++) {
        const x1 = Math.max(xs[ox]! + 1, xs[ox + 1]!);
        let sy_ = 0;
        let su = 0;
        let sv = 0;
        for (let sx = xs[ox]!; sx < x1; sx++) {
          sy_ += y.data[yRow + sx]!;
          su += cb.data[cRow + (sx >> 1)]!;
          sv += cr.data[dRow + (sx >> 1)]!;
        }
        sums[ox * 3] = sums[ox * 3]! + sy_;
        sums[ox * 3 + 1] = sums[ox * 3 + 1]! + su;
        sums[ox * 3 + 2] = sums[ox * 3 + 2]! + sv;
      }
    }
    for (let ox = 0; ox < ow; ox++) {
      const n = (y1 - y0) * (Math.max(xs[ox]! + 1, xs[ox + 1]!) - xs[ox]!);
      const Y = sums[ox * 3]! / n;
      const U = sums[ox * 3 + 1]! / n - 128;
      const V = sums[ox * 3 + 2]! / n - 128;
      const o = (oy * ow + ox) * 4;
      // A Uint8ClampedArray clamps to 0–255 and rounds on assignment.
      out[o] = Y + 1.402 * V;
      out[o + 1] = Y - 0.344136 * U - 0.714136 * V;
      out[o + 2] = Y + 1.772 * U;
      out[o + 3] = 255;
    }
  }
  return out;
}

/** The output size: the long edge at most MAX_EDGE, the aspect kept. */
function fitWithin(width: number, height: number, edge = MAX_EDGE) {
  const scale = Math.min(1, edge / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

type Decoded =
  | {
      ok: true;
      rgba: Uint8ClampedArray;
      width: number;
      height: number;
      source: { width: number; height: number };
      heapBytes: number;
      /** libheif's memory, held weakly: measure-heic.mjs checks it is collectable before encoding. */
      heap: WeakRef<WebAssembly.Memory> | undefined;
    }
  | Exclude<HeicOutcome, { ok: true }>;

/** A plane read in place from libheif's heap (valid until the image is released). */
function planeOf(lib: Libheif, image: number, channel: number, scratch: number): Plane | null {
  const data = lib._heif_image_get_plane_readonly(image, channel, scratch);
  if (!data) return null;
  const stride = lib.HEAP32[scratch >> 2]!;
  const width = lib._heif_image_get_width(image, channel);
  const height = lib._heif_image_get_height(image, channel);
  return { data: lib.HEAPU8.subarray(data, data + stride * height), stride, width, height };
}

/** The message of a `struct heif_error` (code, subcode, const char* message), or null when Ok. */
function heifError(lib: Libheif, err: number): string | null {
  if (lib.HEAP32[err >> 2] === 0) return null;
  const at = lib.HEAP32[(err >> 2) + 2]!;
  const end = lib.HEAPU8.indexOf(0, at);
  return new TextDecoder().decode(lib.HEAPU8.subarray(at, end < 0 ? at : end)).trim() || "unreadable";
}

/**
 * libheif's part: the header's size (refused above maxPixels before any pixel is decoded), then
 * the planes, shrunk to RGBA. Its instance is unreachable once this returns (only a WeakRef to its
 * memory leaves), so the collector may take its heap back while the JPEG is written.
 */
export async function decodeShrunk(
  bytes: Uint8Array,
  module: WebAssembly.Module,
  maxPixels: number,
): Promise<Decoded> {
  const heif = instantiate<Libheif>(libheifFactory as Factory, module);
  const lib = await heif.ready;
  const scratch = lib._malloc(32); // heif_error (12 bytes), an out-pointer, a stride
  const [err, out, stride] = [scratch, scratch + 16, scratch + 24];
  const data = lib._malloc(bytes.byteLength);
  lib.HEAPU8.set(bytes, data);
  const ctx = lib._heif_context_alloc();
  let handle = 0;
  let image = 0;
  const corrupt = (detail: string) => ({ ok: false, reason: "corrupt", detail }) as const;
  try {
    lib._heif_context_read_from_memory_without_copy(err, ctx, data, bytes.byteLength, 0);
    let failed = heifError(lib, err);
    if (failed) return corrupt(failed);
    lib._heif_context_get_primary_image_handle(err, ctx, out);
    failed = heifError(lib, err);
    if (failed) return corrupt(failed);
    handle = lib.HEAP32[out >> 2]!;
    const source = {
      width: lib._heif_image_handle_get_width(handle),
      height: lib._heif_image_handle_get_height(handle),
    };
    if (source.width * source.height > maxPixels) return { ok: false, reason: "too_many_pixels", ...source };
    lib._heif_decode_image(err, handle, out, YCBCR, CHROMA_420, 0);
    failed = heifError(lib, err);
    if (failed) return corrupt(failed);
    image = lib.HEAP32[out >> 2]!;
    // 10-bit (HDR) planes hold two bytes a sample; 8-bit is what phones write for still photos.
    const bits = lib._heif_image_get_bits_per_pixel_range(image, Y);
    if (bits !== 8) return corrupt(`a ${bits}-bit (HDR) image, which this server does not convert`);
    const [y, cb, cr] = [Y, CB, CR].map((c) => planeOf(lib, image, c, stride));
    if (!y || !cb || !cr) return corrupt("no YCbCr planes");
    const size = fitWithin(y.width, y.height);
    const rgba = shrinkYuv420(y, cb, cr, size.width, size.height);
    return { ok: true, rgba, ...size, source, heapBytes: heif.memoryBytes(), heap: heif.memoryRef() };
  } finally {
    if (image) lib._heif_image_release(image);
    if (handle) lib._heif_image_handle_release(handle);
    lib._heif_context_free(ctx);
    lib._free(data);
    lib._free(scratch);
  }
}

/** HEIC/HEIF bytes → a JPEG at most MAX_EDGE on its long edge, or why not. */
export async function heicToJpeg(
  bytes: Uint8Array,
  codecs: HeicCodecs,
  maxPixels = MAX_PIXELS,
): Promise<HeicOutcome> {
  const d = await decodeShrunk(bytes, codecs.heif, maxPixels);
  if (!d.ok) return d;
  return encodeDecoded(d);
}

/** The second half: the shrunk RGBA → JPEG (baseline, 4:2:0, Annex K Huffman tables). */
export function encodeDecoded(d: Extract<Decoded, { ok: true }>): HeicOutcome {
  const stats = { bufferBytes: 0 };
  const jpeg = encodeJpeg(d.rgba, d.width, d.height, JPEG_QUALITY, stats);
  return {
    ok: true,
    jpeg,
    width: d.width,
    height: d.height,
    source: d.source,
    memory: { heif: d.heapBytes, rgba: d.rgba.byteLength, jpeg: stats.bufferBytes + jpeg.byteLength },
  };
}
