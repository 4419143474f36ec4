import type { z } from "zod";
import { registerReverter } from "../../../http/activity";
import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute } from "../../../http/route";
import { currentAlias, restoreAlias } from "../service";

export const AliasRoute = domainRoute("merchant-aliases");

export const json = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { "application/json": { schema } },
});
export const NOT_FOUND = { "404": json("No alias for this raw name (case-insensitive)", ErrorEnvelope) };

/** Activity revert of alias put/delete: the resource id is the raw name. */
registerReverter("alias", {
  current: (ctx, rawName) => currentAlias(ctx, rawName),
  restore: (ctx, rawName, before) => restoreAlias(ctx, rawName, before),
});
