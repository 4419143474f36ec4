import { isLocalRequest } from "../../../http/auth";
import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { DemoDataQuery, DemoDataResponse } from "../setup-schemas";
import { seedDemoData } from "../setup-service";

export class SeedDemoData extends domainRoute("system") {
  override schema = {
    operationId: "seedDemoData",
    summary: "Fill an empty journal with the demo household (loopback only)",
    description:
      "Sets up the demo household's merchant rules and a budget for this year (when none exists), then " +
      "sends ~8 months of generated bank alerts (the banks' own wording) through the ingest pipeline and a " +
      "card statement through upload → reconcile → import: no row is written by hand. `today` and `seed` " +
      "fix the clock and the generator. 403 unless the request reached the Worker over loopback; 409 when " +
      "any transaction already exists; 405 in the read-only demo. Journaled (envelope only).",
    request: { query: DemoDataQuery },
    responses: {
      "201": { description: "Written", content: { "application/json": { schema: DemoDataResponse } } },
    },
  };

  override async handle(c: AppContext) {
    const local = isLocalRequest(c.env, c.req.raw);
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await seedDemoData(serviceCtx(c), { local, ...query }), 201);
  }
}
