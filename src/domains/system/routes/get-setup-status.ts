import { isLocalRequest } from "../../../http/auth";
import { domainRoute, json, route } from "../../../http/route";
import { SetupStatusResponse } from "../setup-schemas";
import { getSetupStatus } from "../setup-service";

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
