/**
 * HEIC/HEIF → JPEG at upload, where it can be done honestly. Cloudflare's Images binding decodes
 * HEIC in production; it is used when the Worker has one bound as `IMAGES` (wrangler.toml
 * `[images] binding = "IMAGES"`). Without it (local `wrangler dev`, tests, a deployment without
 * the binding) the file is stored as it came, as image/heic: no WASM decoder is bundled (a
 * 12-megapixel photo needs more than a Worker's 128 MB), and the dashboard converts HEIC to JPEG
 * in the browser before uploading wherever the browser can decode it.
 */
import type { Env } from "../../env";
import { log } from "../../lib/log";
import { type FileFamily, sniff } from "./filetype";

/** The longest edge sent on: a receipt stays legible and the model's vision input is ~1568 px. */
const MAX_EDGE = 1568;

export async function toJpegWhereBound(
  env: Env,
  family: FileFamily,
  bytes: Uint8Array,
): Promise<{ family: FileFamily; bytes: Uint8Array }> {
  const images = (env as Env & { IMAGES?: ImagesBinding }).IMAGES;
  if (family !== "heic" || !images) return { family, bytes };
  try {
    const input = new Blob([bytes]).stream();
    const out = await images
      .input(input)
      .transform({ width: MAX_EDGE, height: MAX_EDGE, fit: "scale-down" })
      .output({ format: "image/jpeg", quality: 85 });
    const jpeg = new Uint8Array(await new Response(out.image()).arrayBuffer());
    if (sniff(jpeg) !== "jpeg") throw new Error("the binding did not return a JPEG");
    return { family: "jpeg", bytes: jpeg };
  } catch (err) {
    log("warn", "attachments.heic_convert_failed", { error: String(err) });
    return { family, bytes };
  }
}
