// HEIC/HEIF decoding for browsers that cannot decode it themselves (Chromium, Firefox): libheif's
// WebAssembly build, loaded only when a HEIC file is picked. This module is imported dynamically by
// ./heic.ts, so Vite puts it, the emscripten glue and the .wasm (an asset URL, fetched and compiled
// by the browser) in chunks of their own: the main bundle does not grow.
import libheif from "libheif-js/libheif-wasm/libheif.js";
import wasmUrl from "libheif-js/libheif-wasm/libheif.wasm?url";

interface HeifImage {
  get_width(): number;
  get_height(): number;
  is_primary(): boolean;
  display(target: ImageData, done: (result: ImageData | null) => void): void;
  free(): void;
}
interface Libheif {
  HeifDecoder: new () => { decode(bytes: Uint8Array): HeifImage[]; decoder: unknown };
  heif_context_free(ctx: unknown): void;
}

let compiled: Promise<WebAssembly.Module> | null = null;

/** A fresh libheif instance (its heap is dropped with it); the compiled module is kept. */
async function instance(): Promise<Libheif> {
  compiled ??= WebAssembly.compileStreaming(fetch(wasmUrl)).catch((err) => {
    compiled = null;
    throw err;
  });
  const module = await compiled;
  return new Promise((resolve, reject) => {
    const options: Record<string, unknown> = {
      print: () => {},
      printErr: () => {},
      // This glue reads the exports right after asking (it is built for synchronous instantiation);
      // instantiating an already compiled module synchronously is allowed on the main thread.
      instantiateWasm(imports: WebAssembly.Imports, done: (i: WebAssembly.Instance) => void) {
        const created = new WebAssembly.Instance(module, imports);
        done(created);
        return created.exports;
      },
      onRuntimeInitialized: () => resolve(options as unknown as Libheif),
      onAbort: (what: unknown) => reject(new Error(String(what))),
    };
    (libheif as unknown as (o: Record<string, unknown>) => unknown)(options);
  });
}

/** The primary image as a bitmap whose long edge is at most `edge` pixels. */
export async function decodeHeic(file: Blob, edge: number): Promise<ImageBitmap> {
  const lib = await instance();
  const decoder = new lib.HeifDecoder();
  try {
    const images = decoder.decode(new Uint8Array(await file.arrayBuffer()));
    const image = images.find((i) => i.is_primary()) ?? images[0];
    if (!image) throw new Error("no image in this HEIC file");
    const width = image.get_width();
    const height = image.get_height();
    const pixels = await new Promise<ImageData>((resolve, reject) =>
      image.display(new ImageData(width, height), (out) =>
        out ? resolve(out) : reject(new Error("the HEIC image does not decode")),
      ),
    );
    for (const i of images) i.free();
    const scale = Math.min(1, edge / Math.max(width, height));
    return await createImageBitmap(pixels, {
      resizeWidth: Math.max(1, Math.round(width * scale)),
      resizeHeight: Math.max(1, Math.round(height * scale)),
      resizeQuality: "high",
    });
  } finally {
    if (decoder.decoder) lib.heif_context_free(decoder.decoder);
  }
}
