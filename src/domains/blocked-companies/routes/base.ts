import type { z } from "zod";
import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute } from "../../../http/route";

export const BlockedRoute = domainRoute("blocked-companies");

export const json = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { "application/json": { schema } },
});
export const notFoundResponse = (what: string) => ({ "404": json(what, ErrorEnvelope) });
