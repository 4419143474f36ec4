// HEIC/HEIF → JPEG in the browser before upload, so the server stores a JPEG the model can read and
// a phone's 12-megapixel photo never meets the server's size limit for converting HEIC itself.
// Safari decodes HEIC natively (createImageBitmap); elsewhere libheif's WebAssembly build is loaded
// on demand (./heic-libheif.ts, its own chunk). If both fail the file goes up as it is and the server
// converts it when it can (or says in words why not).
const HEIC = /\.(heic|heif|hif)$/i;
/** The stored JPEG's long edge, as on the server: a receipt's small print stays legible. */
const MAX_EDGE = 2048;

export const isHeic = (f: File) => HEIC.test(f.name) || /^image\/hei[cf]/.test(f.type);

async function bitmapOf(file: File): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(file);
  } catch {
    const { decodeHeic } = await import("./heic-libheif");
    return decodeHeic(file, MAX_EDGE);
  }
}

export async function toUploadable(file: File): Promise<File> {
  if (!isHeic(file) || typeof createImageBitmap !== "function") return file;
  try {
    const bitmap = await bitmapOf(file);
    const scale = Math.min(1, MAX_EDGE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85));
    if (!blob) return file;
    return new File([blob], file.name.replace(HEIC, ".jpg"), { type: "image/jpeg" });
  } catch (err) {
    console.warn("HEIC conversion in the browser failed; uploading the original", err);
    return file;
  }
}
