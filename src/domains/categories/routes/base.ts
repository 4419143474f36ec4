import { z } from "zod";
import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute, errors, json } from "../../../http/route";
import { parseIfMatch } from "../rules";

export const CategoriesRoute = domainRoute("categories");

export const NOT_FOUND = errors({ "404": "No such category (case-insensitive)" });
export const CONFLICT = {
  "409": json("Stale `If-Match` version, a duplicate name, or Miscellaneous is protected", ErrorEnvelope),
};

/**
 * Optional optimistic lock on category writes: `If-Match: <version>` from the managed list, read
 * by the request schema into the version (absent or `*` → null; not a version → 422).
 */
export const IfMatchHeaders = z.object({
  "if-match": z
    .string()
    .nullable()
    .optional()
    .refine((h) => parseIfMatch(h) !== "invalid", "must be a list version (integer)")
    .transform((h) => parseIfMatch(h) as number | null)
    .describe("The list `version` this write is based on; a stale version gives 409 CONFLICT"),
});
