import type { AppContext } from "../../../http/context";
import { errors, json, route } from "../../../http/route";
import { corsPolicy } from "../../../http/cors";
import { sameSiteWriteAllowed } from "../../../http/origin";
import { candidates } from "../candidates";
import { AttachmentIdParam, CandidatesQuery, ReceiptCandidatesResponse } from "../schemas";
import { AttachmentsRoute } from "./base";

export const ListReceiptMatchCandidates = route(AttachmentsRoute, {
  operationId: "listReceiptMatchCandidates",
  summary: "Rank the transactions a receipt might explain; auto-link a single exact match",
  description:
    "T1: amount within 0.02, same day, same normalized+aliased merchant. T2: amount within 0.02, ±3 days. " +
    "T3: a restaurant row up to 20% above the receipt (tip), ±3 days. At most 8; rows that already carry " +
    "a receipt come last. Uses the parse, or `total`/`date`/`merchant` given here. An unfiled receipt " +
    "with exactly one T1 candidate is linked by this request and journaled with the caller as principal " +
    "(demo mode and read-only tokens only see `auto_link_candidate`). 409 without a total and date.",
  request: { params: AttachmentIdParam, query: CandidatesQuery },
  responses: {
    "200": json("Ranked candidates", ReceiptCandidatesResponse),
    ...errors({ "404": "No such attachment", "409": "No total and date yet" }),
  },
  handle: async (ctx, { params, query }, c) =>
    candidates(ctx, {
      id: params.attachment_id,
      typed: query,
      opts: { mayLink: notCrossSite(c) },
    }),
});

/**
 * The auto-link is a write behind a GET, which the cross-site write guard does not cover: with
 * ambient credentials (cookie, TOFU) it only happens when the browser says the request is not
 * from a foreign page (an <img> elsewhere must not file receipts).
 */
function notCrossSite(c: AppContext): boolean {
  if (!["session", "tofu", "dev-bypass"].includes(c.get("principal").kind)) return true;
  return sameSiteWriteAllowed(
    c.req.url,
    c.req.header("origin"),
    c.req.header("sec-fetch-site"),
    corsPolicy(c.env.CORS_ALLOWED_ORIGINS).origins,
  );
}
