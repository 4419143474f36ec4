/** The blocked-company list's API shapes (config/blocked_companies.json is a plain array of names). */
import { z } from "zod";

const BlockedCompanyName = z.string().trim().min(1).max(200);

export const BlockedCompanyParam = z.object({
  company: BlockedCompanyName.describe("The company name, URL-encoded (matched without regard to case)"),
});

export const BlockedCompany = z
  .object({ company: z.string(), created_at: z.string() })
  .meta({ id: "BlockedCompany" });

export const BlockedCompanyListResponse = z
  .object({
    companies: z.array(BlockedCompany).describe("Alphabetical, case-insensitively"),
    count: z.number().int(),
  })
  .meta({ id: "BlockedCompanyListResponse" });

export const BlockedCompanyDeleteResponse = z
  .object({ company: z.string(), status: z.literal("unblocked") })
  .meta({ id: "BlockedCompanyDeleteResponse" });
