/**
 * The write tools (read+write tokens only): each calls the service verb its HTTP route calls and
 * journals an activity entry under `mcp.<tool>` with the same images, so the same revert undoes it.
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
import { register } from "./define";

/** patchTransaction types `state` as a string; it is one of the schema's states. */
type SetCategoryOut = z.input<typeof tools.setCategory.output>;

export function registerWriteTools(server: McpServer, { ctx, journal }: ToolContext) {
  register(server, {
    name: "set_category",
    title: "Set a transaction's category",
    description:
      "Corrects one transaction's category (it also leaves the attention queue). With `as_rule: true` " +
      "the category also becomes the merchant's rule, so future alerts from it are filed the same way. " +
      "Each change is journaled and can be undone from the activity ledger.",
    write: true,
    ...tools.setCategory,
    run: async ({ tx_id, category, as_rule }) => {
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
      const res = await patchTransaction(ctx, tx_id, { category });
      const response = res.response as Omit<SetCategoryOut, "activity_id" | "rule">;
      const company = res.row.Company;
      const activity_id = journal("mcp.set_category", {
        staged: {
          kind: "transaction",
          resourceId: tx_id,
          before: res.before,
          after: res.after,
          summary: `${company ?? "transaction"}: category ${res.row.Category ?? "none"} → ${res.next.Category}`,
        },
      });
      if (!as_rule || !company) return { ...response, activity_id, rule: null };
      const rule = await putOverride({ ctx, company, category });
      const ruleId = journal("mcp.set_category", {
        staged: { kind: "override", resourceId: company, before: rule.before, after: rule.after },
      });
      return { ...response, activity_id, rule: { ...rule.after, activity_id: ruleId } };
    },
  });
  register(server, {
    name: "set_comment",
    title: "Comment on a transaction",
    description: "Sets (or, with an empty or null `comment`, clears) the note on one transaction. Undoable.",
    write: true,
    ...tools.setComment,
    run: async ({ tx_id, comment }) => {
      const res = await setComment(ctx, tx_id, comment);
      const summary = `comment on ${res.row.Company ?? "transaction"}`;
      const activity_id = journal("mcp.set_comment", {
        staged: { kind: "transaction", resourceId: tx_id, before: res.before, after: res.after, summary },
      });
      return { ...res.response, activity_id };
    },
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
    run: async (input) => {
      const res = await addManual(ctx, input);
      const summary = `${res.status}: ${input.company} ${input.amount}`;
      return {
        ...res,
        activity_id: journal("mcp.add_transaction", { note: { resourceId: res.tx_id, summary } }),
      };
    },
  });
  register(server, {
    name: "resolve_parse_failure",
    title: "Resolve a quarantined email",
    description:
      "Creates the transaction of a quarantined alert email (see list_parse_failures) from values read " +
      "off the email by a person or by you: date, amount, merchant, optionally category and institution.",
    write: true,
    ...tools.resolveParseFailure,
    run: async ({ failure_id, ...input }) => {
      const { response: res } = await resolveParseFailure({ ctx, id: failure_id, input });
      const note = { resourceId: failure_id, summary: `resolved as ${input.company} ${input.amount}` };
      return { ...res, activity_id: journal("mcp.resolve_parse_failure", { note }) };
    },
  });
}
