/** Pure alias rules. An alias works on normalized names (resolver tier 2), so both sides must survive normalization. */
import { normalizeMerchant } from "../../categorize/normalize";
import type { ValidationIssue } from "../../lib/errors";

export function aliasProblems(rawName: string, canonical: string): ValidationIssue[] {
  const from = normalizeMerchant(rawName);
  const to = normalizeMerchant(canonical);
  const issues: ValidationIssue[] = [];
  if (!from)
    issues.push({
      loc: ["path", "raw_name"],
      msg: "has no letters left after normalization",
      type: "value_error",
    });
  if (!to)
    issues.push({
      loc: ["body", "canonical_name"],
      msg: "has no letters left after normalization",
      type: "value_error",
    });
  if (from && from === to) {
    issues.push({
      loc: ["body", "canonical_name"],
      msg: `both names normalize to '${from}': the alias would do nothing`,
      type: "value_error",
    });
  }
  return issues;
}
