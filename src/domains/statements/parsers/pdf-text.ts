/**
 * Text items of a PDF with their positions (pdf.js through unpdf's serverless build, which needs
 * no separate .wasm import in workerd). A withdrawal and a deposit differ only by column, so the
 * parsers work from x/y, never from the flattened text.
 *
 * Cost is bounded before any page is read: the page count the file declares (every `/Count` in its
 * bytes, then pdf.js's own count from the page tree's root) must be at most MAX_PDF_PAGES, so a
 * small file whose page tree is a DAG claiming millions of pages is refused at once, and the text
 * items stop at MAX_PDF_ITEMS.
 */
import { getDocumentProxy } from "unpdf";
import { checkPdf, PdfRefused } from "../../../lib/pdf-guard";

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

/** No bank's monthly or yearly statement comes near these. */
export const MAX_PDF_PAGES = 300;
export const MAX_PDF_ITEMS = 200_000;

/** Why a PDF is refused before its text is read (a page count, or lib/pdf-guard.ts's reason). */
export class PdfTooBig extends PdfRefused {
  constructor(
    pages: number,
    message = `The PDF declares ${pages.toLocaleString("en")} pages; statements are read up to ${MAX_PDF_PAGES} pages (split the file or export a CSV/OFX)`,
  ) {
    super(message, pages);
  }
}

export const isPdf = (bytes: Uint8Array): boolean =>
  new TextDecoder("latin1").decode(bytes.subarray(0, 1024)).includes("%PDF-");

/** The largest `/Count` written in the file's own bytes (page trees outside object streams). */
export function declaredPageCount(bytes: Uint8Array): number {
  const text = new TextDecoder("latin1").decode(bytes);
  let max = 0;
  for (const m of text.matchAll(/\/Count\s+(\d{1,20})/g)) max = Math.max(max, Number(m[1]));
  return max;
}

/** Every non-blank text item of every page (in stream order within a page). Throws on a broken PDF. */
export async function readPdfText(bytes: Uint8Array): Promise<PdfText> {
  const declared = declaredPageCount(bytes);
  if (declared > MAX_PDF_PAGES) throw new PdfTooBig(declared);
  // Inflated bytes, operators per page and the page tree, before pdf.js does any of the work.
  checkPdf(bytes, MAX_PDF_PAGES);
  // pdf.js may transfer (detach) the buffer it is given: hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    if (pdf.numPages > MAX_PDF_PAGES) throw new PdfTooBig(pdf.numPages);
    const items: TextItem[] = [];
    for (let p = 1; p <= pdf.numPages; p++) {
      const page = await pdf.getPage(p);
      const content = await page.getTextContent();
      for (const raw of content.items) {
        if (!("str" in raw) || raw.str.trim() === "") continue;
        items.push({ page: p, x: raw.transform[4], y: raw.transform[5], w: raw.width, str: raw.str.trim() });
      }
      if (items.length > MAX_PDF_ITEMS) {
        throw new PdfTooBig(
          pdf.numPages,
          `The PDF holds more than ${MAX_PDF_ITEMS} pieces of text; no statement is that long`,
        );
      }
    }
    return { pages: pdf.numPages, items };
  } finally {
    // Frees pdf.js page caches of this document (the serverless build has no destroy()).
    await Promise.resolve((pdf as { cleanup?: () => unknown }).cleanup?.()).catch(() => undefined);
  }
}
