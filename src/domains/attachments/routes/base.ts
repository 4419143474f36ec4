import type { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute } from "../../../http/route";

export const AttachmentsRoute = domainRoute("attachments");

export const json = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { "application/json": { schema } },
});

export const errors = (table: Record<string, string>) =>
  Object.fromEntries(Object.entries(table).map(([status, what]) => [status, json(what, ErrorEnvelope)]));

/** Stages the parse route's entry (link, upload and delete journal in their own batch: service.ts). */
export function stageAttachment(
  c: AppContext,
  id: string,
  before: object | null,
  after: object | null,
  summary: string,
  reversible: boolean,
) {
  serviceCtx(c).journal({ kind: "attachment", resourceId: id, before, after, summary, reversible });
}
