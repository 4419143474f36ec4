// HEIC/HEIF → JPEG in the browser before upload, wherever the browser can decode HEIC (Safari on
// iPhone and Mac can; most others cannot). Then the server stores a JPEG the model can read; when the
// browser cannot, the file goes up as it is and the server keeps it as HEIC.
const HEIC = /\.(heic|heif|hif)$/i;

export const isHeic = (f: File) => HEIC.test(f.name) || /^image\/hei[cf]/.test(f.type);

export async function toUploadable(file: File): Promise<File> {
  if (!isHeic(file) || typeof createImageBitmap !== "function") return file;
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, 2048 / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85));
    if (!blob) return file;
    return new File([blob], file.name.replace(HEIC, ".jpg"), { type: "image/jpeg" });
  } catch {
    return file;
  }
}
