import { domainRoute, json, route } from "../../http/route";
import { CoverageResponse } from "./schemas";
import { getCoverage } from "./service";

export const GetCoverage = route(domainRoute("coverage"), {
  operationId: "getCoverage",
  summary: "Per-institution bank-alert cadence and passive email-capture rate",
  description:
    "Each institution's alert cadence (active, quiet, dormant or irregular) over the trailing " +
    "window, and the share of statement rows an alert email already captured (null when no " +
    "statement rows exist).",
  responses: {
    "200": json("OK", CoverageResponse),
  },
  handle: async (ctx) => getCoverage(ctx),
});
