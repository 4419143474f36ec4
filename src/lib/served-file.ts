/**
 * Headers of every response that serves stored bytes (attachments, statement files): the bytes are
 * inert whatever they hold. The type is the one the caller derived from the bytes themselves;
 * only images and PDFs are shown inline, anything else downloads; a sandbox CSP keeps a document
 * that slipped through from running script or loading anything; nosniff stops the browser from
 * guessing a more dangerous type; the file name reaches the header only escaped.
 */

/** Types a browser may show inline (our accepted image families and PDF). */
const INLINE_TYPES = new Set(["image/jpeg", "image/png", "image/webp", "image/gif", "application/pdf"]);

const FILE_CSP = "sandbox; default-src 'none'; frame-ancestors 'none'";

/** A header-safe Content-Disposition: an ASCII fallback plus the RFC 5987 UTF-8 form. */
export function contentDisposition(disposition: "inline" | "attachment", filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\;%]/g, "_").slice(0, 150) || "file";
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Whether a derived type may be served inline. */
const servedInline = (contentType: string) => INLINE_TYPES.has(contentType);

export function servedFileHeaders(f: {
  /** Derived by us from the bytes or the parsed kind (never a stored or client string). */
  contentType: string;
  filename: string;
  /** Always a download, even for a type that could show inline. */
  download?: boolean;
  size?: number;
  cacheControl: string;
}): Record<string, string> {
  const inline = !f.download && servedInline(f.contentType);
  return {
    "Content-Type": f.contentType,
    ...(f.size === undefined ? {} : { "Content-Length": String(f.size) }),
    "Content-Disposition": contentDisposition(inline ? "inline" : "attachment", f.filename),
    "Content-Security-Policy": FILE_CSP,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": f.cacheControl,
  };
}
