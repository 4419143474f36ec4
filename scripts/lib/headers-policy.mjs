// The dashboard's static headers (dashboard/public/_headers, copied into dist by the build) allow
// only this origin. A dashboard built for another host (VITE_API_BASE_URL, e.g. on Pages) calls
// the API on the Worker's origin and shows receipts from it: that origin joins connect-src and
// img-src in dist/_headers, and nothing else does.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The policy line with `origin` added to connect-src and img-src (unchanged without an origin). */
export function withApiOrigin(headersText, apiBase) {
  if (!apiBase) return headersText;
  const origin = new URL(apiBase).origin;
  return headersText.replace(/^(\s*Content-Security-Policy:.*)$/gm, (line) =>
    line.replace(/\b(connect-src|img-src) 'self'/g, `$1 'self' ${origin}`),
  );
}

/** Rewrites dist/_headers for VITE_API_BASE_URL; returns whether it changed anything. */
export function applyApiOrigin(outDir, apiBase) {
  const file = join(outDir, "_headers");
  if (!apiBase || !existsSync(file)) return false;
  const before = readFileSync(file, "utf8");
  const after = withApiOrigin(before, apiBase);
  if (after !== before) writeFileSync(file, after);
  return after !== before;
}
