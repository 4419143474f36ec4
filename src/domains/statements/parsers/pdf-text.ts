/**
 * Text items of a PDF with their positions (pdf.js through unpdf's serverless build, which needs
 * no separate .wasm import in workerd). A withdrawal and a deposit differ only by column, so the
 * parsers work from x/y, never from the flattened text.
 */
import { getDocumentProxy } from "unpdf";

export interface TextItem {
  page: number;
  /** Left edge and baseline in PDF points (y grows upwards). */
  x: number;
  y: number;
  /** Width in points (right edge = x + w). */
  w: number;
  str: string;
}

export interface PdfText {
  pages: number;
  items: TextItem[];
}

export const isPdf = (bytes: Uint8Array): boolean =>
  new TextDecoder("latin1").decode(bytes.subarray(0, 1024)).includes("%PDF-");

/** Every non-blank text item of every page (in stream order within a page). Throws on a broken PDF. */
export async function readPdfText(bytes: Uint8Array): Promise<PdfText> {
  // pdf.js may transfer (detach) the buffer it is given: hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const items: TextItem[] = [];
    for (let p = 1; p <= pdf.numPages; p++) {
      const page = await pdf.getPage(p);
      const content = await page.getTextContent();
      for (const raw of content.items) {
        if (!("str" in raw) || raw.str.trim() === "") continue;
        items.push({ page: p, x: raw.transform[4], y: raw.transform[5], w: raw.width, str: raw.str.trim() });
      }
    }
    return { pages: pdf.numPages, items };
  } finally {
    // Frees pdf.js page caches of this document (the serverless build has no destroy()).
    await Promise.resolve((pdf as { cleanup?: () => unknown }).cleanup?.()).catch(() => undefined);
  }
}
