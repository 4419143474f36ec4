import type { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute } from "../../../http/route";

export const TaxRoute = domainRoute("tax");

export const json = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { "application/json": { schema } },
});

export const errors = (table: Record<string, string>) =>
  Object.fromEntries(Object.entries(table).map(([status, what]) => [status, json(what, ErrorEnvelope)]));

/** Stages a reversible ledger entry for an override (`tax_override`) or the mapping (`tax_mapping`). */
export function stageTax(
  c: AppContext,
  kind: "tax_override" | "tax_mapping",
  id: string,
  before: object | null,
  after: object | null,
  summary: string,
) {
  serviceCtx(c).journal({ kind, resourceId: id, before, after, summary, reversible: true });
}
