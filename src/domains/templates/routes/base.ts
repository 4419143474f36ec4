import type { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute } from "../../../http/route";

export const TemplatesRoute = domainRoute("templates");

export const json = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { "application/json": { schema } },
});

export const NOT_FOUND = { "404": json("No such template", ErrorEnvelope) };

/** Stages a reversible ledger entry over whole template rows. */
export function stageTemplate(
  c: AppContext,
  id: string,
  before: object | null,
  after: object | null,
  summary: string,
) {
  serviceCtx(c).journal({ kind: "alert_template", resourceId: id, before, after, summary, reversible: true });
}
