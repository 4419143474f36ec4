import { serviceCtx } from "../../../http/context";
import { domainRoute, route } from "../../../http/route";
import { WhoamiResponse } from "../../auth/schemas";
import { whoami } from "../service";

export const GetWhoami = route(domainRoute("whoami"), {
  operationId: "getWhoami",
  summary: "Resolve the current caller's identity (token, session, TOFU, or dev-bypass)",
  responses: {
    "200": { description: "The caller", content: { "application/json": { schema: WhoamiResponse } } },
  },
  handle: async (c) => whoami(serviceCtx(c)),
});
