/** Saves a downloaded body under the name its Content-Disposition gives (else `fallback`). */
export function saveBlob(blob: Blob, disposition: string | null, fallback: string) {
  const name = disposition?.match(/filename="?([^";]+)"?/)?.[1] ?? fallback;
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;
export const thousands = (n: number) => n.toLocaleString("en-US");
