import { z } from "zod";

const Merchant = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

export const MerchantAliasEntry = z
  .object({ raw_name: z.string(), canonical_name: z.string() })
  .meta({ id: "MerchantAliasEntry" });
export type MerchantAliasEntry = z.infer<typeof MerchantAliasEntry>;

export const MerchantAliasListResponse = z
  .object({
    aliases: z.array(MerchantAliasEntry),
    count: z.number().int(),
    version: z.number().int().describe("Bumped by every alias write"),
  })
  .meta({ id: "MerchantAliasListResponse", description: "Raw merchant name → canonical name, by raw name." });

export const MerchantAliasPutRequest = z
  .object({ canonical_name: Merchant.describe("The name overrides are written against") })
  .strict()
  .meta({ id: "MerchantAliasPutRequest" });

export const MerchantAliasMutationResponse = z
  .object({ ok: z.boolean() })
  .meta({ id: "MerchantAliasMutationResponse" });

export const RawNameParam = z.object({ raw_name: Merchant.describe("The raw merchant name, URL-encoded") });
