/**
 * libheif as a compiled WebAssembly module, imported (bundled by wrangler as CompiledWasm), never
 * compiled from bytes at run time. Kept apart from heic-decode.ts so that file runs in Node.
 * The JPEG side needs no module: jpeg-encode.ts is TypeScript.
 */
import heif from "libheif-js/libheif-wasm/libheif.wasm";
import { type HeicOutcome, heicToJpeg } from "./heic-decode";

/**
 * One conversion at a time per isolate: an isolate may serve several requests at once, and two
 * conversions side by side would hold two libheif heaps (MAX_PIXELS is measured for one).
 */
let turn: Promise<unknown> = Promise.resolve();

export function convertHeic(bytes: Uint8Array): Promise<HeicOutcome> {
  const mine = turn.then(() => heicToJpeg(bytes, { heif }));
  turn = mine.catch(() => undefined);
  return mine;
}
