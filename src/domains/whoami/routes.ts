import { domainRoute, json, route } from "../../http/route";
import { WhoamiResponse } from "../auth/schemas";
import { whoami } from "./service";

export const GetWhoami = route(domainRoute("whoami"), {
  operationId: "getWhoami",
  summary: "Resolve the current caller's identity (token, session, TOFU, or dev-bypass)",
  responses: {
    "200": json("The caller", WhoamiResponse),
  },
  handle: async (ctx) => whoami(ctx),
});
