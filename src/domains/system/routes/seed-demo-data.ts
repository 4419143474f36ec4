import { annotateActivity } from "../../../http/activity";
import { isLocalRequest } from "../../../http/auth";
import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { DemoDataResponse } from "../setup-schemas";
import { seedDemoData } from "../setup-service";

export class SeedDemoData extends domainRoute("setup") {
  override schema = {
    operationId: "seedDemoData",
    summary: "Fill an empty journal with the demo household (loopback only)",
    description:
      "Writes ~8 months of demo transactions, a few overrides and a budget for this year (when none " +
      "exists). 403 unless the request reached the Worker over loopback; 409 when any transaction " +
      "already exists; 405 in the read-only demo. Journaled (envelope only).",
    responses: {
      "201": { description: "Written", content: { "application/json": { schema: DemoDataResponse } } },
    },
  };

  override async handle(c: AppContext) {
    const local = isLocalRequest(c.env, c.req.raw);
    const out = await seedDemoData({ ctx: serviceCtx(c), local });
    annotateActivity(c, { resourceId: "demo-data", summary: `added ${out.transactions} demo transactions` });
    return c.json(out, 201);
  }
}
