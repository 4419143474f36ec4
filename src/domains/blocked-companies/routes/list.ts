import type { AppContext } from "../../../http/context";
import { getDb } from "../../../db";
import { BlockedCompanyListResponse } from "../schemas";
import { listBlocked } from "../service";
import { BlockedRoute, json } from "./base";

export class ListBlockedCompanies extends BlockedRoute {
  override schema = {
    operationId: "listBlockedCompanies",
    summary: "The blocked-company list: transactions from these companies send no notification",
    responses: { "200": json("The list", BlockedCompanyListResponse) },
  };

  override async handle(c: AppContext) {
    const rows = await listBlocked(getDb(c.env.DB));
    return c.json({
      companies: rows.map((r) => ({ company: r.company, created_at: r.created_at })),
      count: rows.length,
    });
  }
}
