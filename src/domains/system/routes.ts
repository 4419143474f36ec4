import { isLocalRequest } from "../../http/auth";
import { domainRoute, json, route } from "../../http/route";
import { SetupStatusResponse, DemoDataQuery, DemoDataStatus } from "./setup-schemas";
import { getSetupStatus } from "./setup-service";
import { type AppContext, serviceCtx } from "../../http/context";
import { runStatusRoute } from "../../http/step-routes";
import { demoDataStatus, startDemoData } from "./demo-steps";

export const GetSetupStatus = route(domainRoute("system"), {
  operationId: "getSetupStatus",
  summary: "First-run facts: is the journal empty, how alerts get in, password and demo data",
  description:
    "For the dashboard's first-run screen: whether any transaction exists, the addresses alerts " +
    "arrived at so far (Email Routing), the polled mailbox (IMAP) and its last poll, whether a " +
    "password is set, and whether demo data may be added (only over loopback to an empty journal).",
  responses: {
    "200": json("OK", SetupStatusResponse),
  },
  handle: async (ctx, _, c) => {
    const local = isLocalRequest(c.env, c.req.raw);
    return await getSetupStatus(ctx, local);
  },
});

export class SeedDemoData extends domainRoute("system") {
  override schema = {
    operationId: "seedDemoData",
    summary: "Fill an empty journal with the demo household (loopback only), in background steps",
    description:
      "Sets up the demo household's merchant rules and a budget for this year (when none exists) and " +
      "answers 202; then, in background steps of 60, ~8 months of generated bank alerts (the banks' own " +
      "wording) go through the ingest pipeline, and a card statement through upload → reconcile → import: " +
      "no row is written by hand. GET /setup/demo-data tells the alerts sent of all, and what was written " +
      "once done. `today` and `seed` fix the clock and the generator. 403 unless the request reached the " +
      "Worker over loopback; 409 when any transaction already exists or a seed is going on; 405 in the " +
      "read-only demo. Journaled (envelope only).",
    request: { query: DemoDataQuery },
    responses: { "202": json("Started: the run's status", DemoDataStatus) },
  };

  override async handle(c: AppContext) {
    const local = isLocalRequest(c.env, c.req.raw);
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await startDemoData(serviceCtx(c), { local, ...query }), 202);
  }
}

export const GetDemoDataStatus = runStatusRoute("system", {
  operationId: "getDemoDataStatus",
  summary: "The latest demo seeding: alerts sent of all while running, what it wrote when done",
  answer: "The run (idle before any)",
  schema: DemoDataStatus,
  read: (ctx) => demoDataStatus(ctx.env, ctx.clock),
});
