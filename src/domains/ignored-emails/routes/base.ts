import type { z } from "zod";
import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute } from "../../../http/route";

export const IgnoredEmailsRoute = domainRoute("ignored-emails");

export const json = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { "application/json": { schema } },
});

export const NOT_FOUND = { "404": json("No ignored email with this id", ErrorEnvelope) };
