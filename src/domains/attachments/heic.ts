/**
 * HEIC/HEIF → JPEG at upload, so the stored file is one every browser shows and the model reads.
 * 1. Cloudflare's Images binding, when the Worker has one bound as `IMAGES` (wrangler.toml
 *    `[images] binding = "IMAGES"`): it decodes any size, outside the isolate's memory.
 * 2. Otherwise WebAssembly in the isolate (heic-decode.ts): up to MAX_PIXELS, measured to stay
 *    well under a Worker's 128 MB. Larger photos get a 413 in words; the dashboard converts in the
 *    browser before uploading, so this is the path of API clients and of browsers it cannot serve.
 * Only the JPEG is kept: it is what is shown and what the model reads, and the attachment id still
 * comes from the original bytes, so re-uploading the same HEIC upserts.
 */
import type { Env } from "../../env";
import { TooLarge, validationError } from "../../lib/errors";
import { log } from "../../lib/log";
import { MAX_PIXELS } from "./heic-decode";
import { convertHeic } from "./heic-wasm";
import { type FileFamily, sniff } from "./filetype";

/** The Images binding's longest edge: the model's vision input is ~1568 px. */
const BINDING_EDGE = 1568;

type Stored = { family: FileFamily; bytes: Uint8Array };

async function viaBinding(images: ImagesBinding, bytes: Uint8Array): Promise<Stored | null> {
  try {
    const out = await images
      .input(new Blob([bytes]).stream())
      .transform({ width: BINDING_EDGE, height: BINDING_EDGE, fit: "scale-down" })
      .output({ format: "image/jpeg", quality: 85 });
    const jpeg = new Uint8Array(await new Response(out.image()).arrayBuffer());
    if (sniff(jpeg) !== "jpeg") throw new Error("the binding did not return a JPEG");
    return { family: "jpeg", bytes: jpeg };
  } catch (err) {
    log("warn", "attachments.heic_binding_failed", { error: String(err) });
    return null;
  }
}

const tooManyPixels = (width: number, height: number) =>
  new TooLarge(
    `This HEIC photo is ${width}×${height} (${((width * height) / 1e6).toFixed(1)} megapixels); this server converts ` +
      `HEIC to JPEG only up to ${MAX_PIXELS / 1e6} megapixels. Upload it from the dashboard (it converts ` +
      "HEIC in the browser), export it as JPEG on the phone (on an iPhone: Settings › Camera › Formats › " +
      "Most Compatible), or deploy the Worker with the Images binding, which converts any size.",
    { reason: "heic_too_many_pixels", width, height, max_pixels: MAX_PIXELS },
  );

const undecodable = (detail: string) =>
  validationError(
    [{ loc: ["body", "file"], msg: `The HEIC/HEIF file does not decode: ${detail}`, type: "value_error" }],
    "The file starts like a HEIC/HEIF photo but its image data is damaged or unsupported; " +
      "export it again as JPEG or HEIC and upload that.",
  );

/** The bytes to store: a JPEG for HEIC/HEIF, everything else as it came. Throws 413/422 envelopes. */
export async function toStoredImage(env: Env, family: FileFamily, bytes: Uint8Array): Promise<Stored> {
  if (family !== "heic") return { family, bytes };
  const images = (env as Env & { IMAGES?: ImagesBinding }).IMAGES;
  if (images) {
    const done = await viaBinding(images, bytes);
    if (done) return done;
  }
  let out: Awaited<ReturnType<typeof convertHeic>>;
  try {
    out = await convertHeic(bytes);
  } catch (err) {
    // libheif aborts (a WebAssembly trap) on some damaged files: the file's fault, not ours.
    log("warn", "attachments.heic_decode_trap", { error: String(err) });
    throw undecodable("the decoder stopped on it");
  }
  if (out.ok) return { family: "jpeg", bytes: out.jpeg };
  if (out.reason === "too_many_pixels") throw tooManyPixels(out.width, out.height);
  throw undecodable(out.detail);
}
