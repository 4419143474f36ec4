import type { z } from "zod";
import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute } from "../../../http/route";

export const TaxRoute = domainRoute("tax");

export const json = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { "application/json": { schema } },
});

export const errors = (table: Record<string, string>) =>
  Object.fromEntries(Object.entries(table).map(([status, what]) => [status, json(what, ErrorEnvelope)]));
