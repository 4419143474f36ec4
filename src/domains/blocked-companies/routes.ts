import { domainRoute, errors, json, route } from "../../http/route";
import {
  BlockedCompanyDeleteResponse,
  BlockedCompanyParam,
  BlockedCompanyListResponse,
  BlockedCompany,
} from "./schemas";
import { unblockCompany, listBlocked, blockCompany } from "./service";
import { getDb } from "../../db";

export const BlockedRoute = domainRoute("blocked-companies");

export const notFoundResponse = (what: string) => errors({ "404": what });

export const UnblockCompany = route(BlockedRoute, {
  operationId: "unblockCompany",
  summary: "Remove a company from the blocked-company list (404 when it is not on it)",
  description: "Journaled with before/after images (revertable).",
  request: { params: BlockedCompanyParam },
  responses: {
    "200": json("Removed", BlockedCompanyDeleteResponse),
    ...notFoundResponse("The company is not on the list"),
  },
  handle: async (ctx, { params }) => {
    const { row } = await unblockCompany(ctx, params.company);
    return { company: row.company, status: "unblocked" as const };
  },
});

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

export const BlockCompany = route(BlockedRoute, {
  operationId: "blockCompany",
  summary: "Add a company to the blocked-company list (idempotent; no body)",
  description:
    "New transactions from this company (matched without regard to case) still come in, but send " +
    "no notification. Journaled with before/after images (revertable).",
  request: { params: BlockedCompanyParam },
  responses: { "200": json("The entry (the existing one when it was already blocked)", BlockedCompany) },
  handle: async (ctx, { params }) => {
    const { row } = await blockCompany(ctx, params.company);
    return { company: row.company, created_at: row.created_at };
  },
});
