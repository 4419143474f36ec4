import type { z } from "zod";
import { registerReverter } from "../../../http/activity";
import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute } from "../../../http/route";
import { currentOverride, restoreOverride } from "../service";

export const OverridesRoute = domainRoute("overrides");

export const json = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { "application/json": { schema } },
});
export const notFoundResponse = (what: string) => ({ "404": json(what, ErrorEnvelope) });

/** Activity revert of override put/delete: the resource id is the company key. */
registerReverter("override", {
  current: (ctx, company) => currentOverride(ctx, company),
  restore: (ctx, company, before) => restoreOverride(ctx, company, before),
});
