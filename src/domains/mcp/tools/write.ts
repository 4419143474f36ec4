/**
 * The write tools (read+write tokens only): each calls the service verb its HTTP route calls, in a
 * context of its own whose door names the entry `mcp.<tool>`: the verb journals itself, so the
 * entry is the HTTP route's (same images, same revert) written in the verb's own batch.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { z } from "zod";
import { validationError } from "../../../lib/errors";
import { putOverride } from "../../overrides/service";
import { resolveParseFailure } from "../../parse-failures/service";
import { addManual } from "../../transactions/manual";
import { detail, patchTransaction, setComment } from "../../transactions/service";
import type { ToolContext } from "../context";
import { tools } from "../schemas";
import { journaled, register } from "./define";

/** patchTransaction types `state` as a string; it is one of the schema's states. */
type SetCategoryOut = z.input<typeof tools.setCategory.output>;

export function registerWriteTools(server: McpServer, tc: ToolContext) {
  register(server, {
    name: "set_category",
    title: "Set a transaction's category",
    description:
      "Corrects one transaction's category (it also leaves the attention queue). With `as_rule: true` " +
      "the category also becomes the merchant's rule, so future alerts from it are filed the same way. " +
      "Each change is journaled and can be undone from the activity ledger.",
    write: true,
    ...tools.setCategory,
    run: journaled(tc, "set_category", async ({ tx_id, category, as_rule }, ctx) => {
      // A rule needs a merchant: checked before anything is written.
      if (as_rule && !(await detail(ctx, tx_id)).transaction.company) {
        throw validationError([
          {
            loc: ["as_rule"],
            msg: "the transaction has no merchant to make a rule for",
            type: "value_error",
          },
        ]);
      }
      const res = await patchTransaction(ctx, { txId: tx_id, input: { category } });
      const response = res.response as Omit<SetCategoryOut, "activity_id" | "rule">;
      const company = res.row.Company;
      const activity_id = res.activityId;
      if (!as_rule || !company) return { ...response, activity_id, rule: null };
      const rule = await putOverride(ctx, { company, category });
      return { ...response, activity_id, rule: { ...rule.after, activity_id: rule.activityId } };
    }),
  });
  register(server, {
    name: "set_comment",
    title: "Comment on a transaction",
    description: "Sets (or, with an empty or null `comment`, clears) the note on one transaction. Undoable.",
    write: true,
    ...tools.setComment,
    run: journaled(tc, "set_comment", async ({ tx_id, comment }, ctx) => {
      const res = await setComment(ctx, { txId: tx_id, comment });
      return { ...res.response, activity_id: res.activityId };
    }),
  });
  register(server, {
    name: "add_transaction",
    title: "Add a transaction by hand",
    description:
      "Records a transaction that no alert email covered (cash, a missed alert): date YYYY-MM-DD, a " +
      "positive decimal amount, the merchant, optionally a category. An identical entry is not stored " +
      "twice (`status` says `duplicate`).",
    write: true,
    ...tools.addTransaction,
    run: journaled(tc, "add_transaction", async (input, ctx) => {
      const { activityId, ...res } = await addManual(ctx, input);
      return { ...res, activity_id: activityId };
    }),
  });
  register(server, {
    name: "resolve_parse_failure",
    title: "Resolve a quarantined email",
    description:
      "Creates the transaction of a quarantined alert email (see list_parse_failures) from values read " +
      "off the email by a person or by you: date, amount, merchant, optionally category and institution.",
    write: true,
    ...tools.resolveParseFailure,
    run: journaled(tc, "resolve_parse_failure", async ({ failure_id, ...input }, ctx) => {
      const { response: res, activityId } = await resolveParseFailure(ctx, { id: failure_id, input });
      return { ...res, activity_id: activityId };
    }),
  });
}
