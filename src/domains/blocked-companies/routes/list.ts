import { json, route } from "../../../http/route";
import { getDb } from "../../../db";
import { BlockedCompanyListResponse } from "../schemas";
import { listBlocked } from "../service";
import { BlockedRoute } from "./base";

export const ListBlockedCompanies = route(BlockedRoute, {
  operationId: "listBlockedCompanies",
  summary: "The blocked-company list: transactions from these companies send no notification",
  responses: { "200": json("The list", BlockedCompanyListResponse) },
  handle: async (_ctx, _, c) => {
    const rows = await listBlocked(getDb(c.env.DB));
    return {
      companies: rows.map((r) => ({ company: r.company, created_at: r.created_at })),
      count: rows.length,
    };
  },
});
