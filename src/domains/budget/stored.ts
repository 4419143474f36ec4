/**
 * The stored budget documents (budget_config.data), read with their shape: `parseTargets` and
 * `parseGroups` (rules.ts) are the readers of the decoded document (a decimal-era targets document,
 * unmarked, is converted to cents there). `readBudgetDoc` decodes the text a hand-written `sql`
 * query returns (an object, or null when there is none or it is unreadable, logged).
 */
import { z } from "zod";
import { storedJson } from "../../db/json";

export const readBudgetDoc = storedJson("budget_config.data", z.record(z.string(), z.unknown()).nullable(), {
  value: () => null,
});
