import { z } from "zod";
import type { AppContext } from "../../../http/context";
import { ErrorEnvelope, validationError } from "../../../http/errors";
import { domainRoute } from "../../../http/route";
import { parseIfMatch } from "../rules";

export const CategoriesRoute = domainRoute("categories");
export const CategoryManagementRoute = domainRoute("category-management");

export const json = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { "application/json": { schema } },
});

export const NOT_FOUND = { "404": json("No such category (case-insensitive)", ErrorEnvelope) };
export const CONFLICT = {
  "409": json("Stale `If-Match` version, a duplicate name, or Miscellaneous is protected", ErrorEnvelope),
};

/** Optional optimistic lock on category writes: `If-Match: <version>` from the managed list. */
export const IfMatchHeaders = z.object({
  "if-match": z
    .string()
    .nullable()
    .optional()
    .describe("The list `version` this write is based on; a stale version gives 409 CONFLICT"),
});

export function expectedVersion(c: AppContext): number | null {
  const v = parseIfMatch(c.req.header("if-match"));
  if (v === "invalid") {
    throw validationError([
      { loc: ["header", "if-match"], msg: "must be a list version (integer)", type: "int_parsing" },
    ]);
  }
  return v;
}
