import type { z } from "zod";
import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute } from "../../../http/route";

export const StatementsRoute = domainRoute("statements");

export const json = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { "application/json": { schema } },
});

export const NOT_FOUND = { "404": json("No statement (or row) with this id", ErrorEnvelope) };
export const CONFLICT = { "409": json("The row was already settled by an import", ErrorEnvelope) };
