import { type Attachment, fileUrl, isImage } from "./api";

/** A receipt's picture (or a labelled tile for a PDF / HEIC), opening the file in a new tab. */
export function Thumb({ a }: { a: Attachment }) {
  const label =
    a.content_type === "application/pdf" ? "PDF" : a.content_type === "image/heic" ? "HEIC" : "File";
  return (
    <a href={fileUrl(a.id)} target="_blank" rel="noreferrer" title={`Open ${a.original_filename}`}>
      {isImage(a) ? (
        <img
          className="receipt-thumb"
          src={fileUrl(a.id)}
          alt={`Receipt ${a.original_filename}`}
          loading="lazy"
        />
      ) : (
        <span className="receipt-thumb">{label}</span>
      )}
    </a>
  );
}
