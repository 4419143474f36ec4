// Receipts for the demo household: small one-page PDFs (the kind a store emails), built by hand so
// the generator needs no library. They go through the attachments upload door like any receipt.

const esc = (s) => s.replace(/[\\()]/g, (c) => `\\${c}`);

/** A one-page PDF (PDF 1.4, Helvetica) listing `lines` top to bottom. */
export function textPdf(lines) {
  const text = lines.map((l, i) => `BT /F1 11 Tf 56 ${760 - i * 16} Td (${esc(l)}) Tj ET`).join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
  ];
  let out = "%PDF-1.4\n";
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

const money = (cents) => `$${(cents / 100).toFixed(2)}`;

/** A store receipt for a purchase of `cents` at `merchant` on `day` (YYYY-MM-DD). */
export function receiptPdf({ merchant, day, cents, items }) {
  const lines = [merchant.toUpperCase(), `Date: ${day}`, ""];
  let rest = cents;
  items.forEach((name, i) => {
    const part = i === items.length - 1 ? rest : Math.round((cents * (i + 1)) / (items.length * 2 + 1));
    rest -= part;
    lines.push(`${name.padEnd(28, ".")} ${money(part)}`);
  });
  lines.push("", `TOTAL ${money(cents)}`, "Paid by card. Thank you!");
  return textPdf(lines);
}
