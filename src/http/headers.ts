/**
 * Security headers on every response the Worker makes (clickjacking). No page
 * of this origin may be framed (`frame-ancestors 'none'`, `X-Frame-Options: DENY`), no response is
 * content-sniffed, and no URL leaks through a Referer. A response that brings its own
 * Content-Security-Policy (the /docs and /redoc pages, a served file) keeps it, with
 * `frame-ancestors 'none'` added when it lacks one; a PDF gets `frame-ancestors 'none'` alone (the
 * browser's viewer must still run); everything else (JSON, text) gets a policy that allows nothing. The dashboard's HTML and assets are served by wrangler's [assets], not by this
 * middleware: dashboard/public/_headers gives them the same headers and the dashboard's policy.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";

const FRAME_ANCESTORS = "frame-ancestors 'none'";
/** The policy of a response that is data, not a page: nothing loads, nothing frames it. */
export const DATA_CSP = `default-src 'none'; ${FRAME_ANCESTORS}; base-uri 'none'; form-action 'none'`;

const FIXED_HEADERS: Readonly<Record<string, string>> = {
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
};

/** Shown by the browser's own viewer, which a `default-src 'none'` can keep from rendering. */
const VIEWER_TYPES = /^application\/pdf\b/i;

/**
 * A Worker page that brought no policy of its own (a page should: /docs does): framing refused,
 * plugins and <base> too, its own scripts and styles left alone so it still works.
 */
export const PAGE_FALLBACK_CSP = `${FRAME_ANCESTORS}; object-src 'none'; base-uri 'none'`;

/** The response's policy with `frame-ancestors 'none'` (its own, when it has one). */
export function withFrameAncestors(csp: string | null, contentType: string | null = null): string {
  if (!csp?.trim()) {
    if (VIEWER_TYPES.test(contentType ?? "")) return FRAME_ANCESTORS;
    return /^text\/html\b/i.test(contentType ?? "") ? PAGE_FALLBACK_CSP : DATA_CSP;
  }
  if (/(^|;)\s*frame-ancestors\s/i.test(csp)) return csp;
  return `${csp.trim().replace(/;\s*$/, "")}; ${FRAME_ANCESTORS}`;
}

function apply(headers: Headers, keepReferrerPolicy = false): void {
  for (const [k, v] of Object.entries(FIXED_HEADERS))
    if (!(keepReferrerPolicy && k === "Referrer-Policy" && headers.has(k))) headers.set(k, v);
  headers.set(
    "Content-Security-Policy",
    withFrameAncestors(headers.get("content-security-policy"), headers.get("content-type")),
  );
}

/** The headers set on `res`, or on a copy of it when its headers are immutable (a fetched response). */
function secured(res: Response, keepReferrerPolicy: boolean): Response {
  try {
    apply(res.headers, keepReferrerPolicy);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    apply(copy.headers, keepReferrerPolicy);
    return copy;
  }
}

/**
 * The same headers on a response made outside the app (the OAuth library's discovery, token and
 * registration answers, its /mcp 401, our consent pages): a page that set its own Referrer-Policy
 * keeps it (the consent form needs a real Origin on its POST).
 */
export const secureResponse = (res: Response): Response => secured(res, true);

export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const res = secured(c.res, false);
  if (res !== c.res) {
    c.res = undefined;
    c.res = res;
  }
};
