/**
 * The AI statement reader: used only when the person opted in (`ai_statement_parsing_enabled`)
 * and no deterministic parser found a table. It fails closed: every amount must appear verbatim
 * in the PDF's text, every date must be a real date inside the text's years, every type must be
 * withdrawal or deposit; one bad row rejects the whole answer.
 */
import { isCalendarDate } from "../../../lib/calendar";
import type { AiProvider, ToolSpec } from "../../../ai/provider";
import { type Cents, formatCents, parseCents, plainCents } from "../../../lib/money";
import { unchecked } from "./balance";
import type { ParseOutcome, StatementRow } from "./index";

export const statementTool: ToolSpec = {
  name: "record_statement",
  description: "Record every transaction row of a bank statement exactly as printed.",
  parameters: {
    type: "object",
    properties: {
      institution: { type: "string" },
      account_type: { type: "string" },
      period_start: { type: ["string", "null"], description: "YYYY-MM-DD" },
      period_end: { type: ["string", "null"], description: "YYYY-MM-DD" },
      transactions: {
        type: "array",
        items: {
          type: "object",
          properties: {
            date: { type: "string", description: "YYYY-MM-DD" },
            description: { type: "string" },
            amount: { type: "string", description: "as printed, without sign" },
            type: { type: "string", enum: ["withdrawal", "deposit"] },
          },
          required: ["date", "description", "amount", "type"],
        },
      },
    },
    required: ["institution", "transactions"],
  },
};

const MAX_TEXT = 30_000;

/** Printed forms of an amount: "1,234.50", "1234.50". */
const printedForms = (cents: Cents) => [plainCents(cents), formatCents(cents)];

const validDate = (s: unknown): s is string => typeof s === "string" && isCalendarDate(s);

/** Checks a model answer against the text; returns the rows or why the answer was refused. */
export function validateAiStatement(text: string, answer: Record<string, unknown>): ParseOutcome {
  const refuse = (why: string): ParseOutcome => ({
    ok: false,
    reason: "ai_validation_failed",
    message: `The AI reading was refused: ${why}`,
  });
  const list = answer.transactions;
  if (!Array.isArray(list) || list.length === 0) return refuse("no transactions");
  const flat = text.replace(/\s+/g, " ");
  const rows: StatementRow[] = [];
  for (const [i, t] of list.entries()) {
    const x = t as Record<string, unknown>;
    if (!validDate(x.date)) return refuse(`row ${i + 1} has no valid date`);
    if (x.type !== "withdrawal" && x.type !== "deposit")
      return refuse(`row ${i + 1} is neither a withdrawal nor a deposit`);
    const cents = parseCents(String(x.amount ?? "").replace(/^[-+]/, ""));
    if (cents === null || cents <= 0) return refuse(`row ${i + 1} has no amount`);
    if (!printedForms(cents).some((f) => flat.includes(f)))
      return refuse(`the amount ${plainCents(cents)} does not appear in the statement`);
    const description = String(x.description ?? "")
      .trim()
      .slice(0, 300);
    if (!description) return refuse(`row ${i + 1} has no description`);
    rows.push({ date: x.date, description, amount: cents, type: x.type, balance: null });
  }
  const dates = rows.map((r) => r.date).sort();
  return {
    ok: true,
    statement: {
      institution:
        String(answer.institution ?? "")
          .trim()
          .slice(0, 60) || "Other",
      account_type:
        String(answer.account_type ?? "")
          .trim()
          .slice(0, 30) || "chequing",
      period_start: validDate(answer.period_start) ? answer.period_start : dates[0]!,
      period_end: validDate(answer.period_end) ? answer.period_end : dates.at(-1)!,
      parsed_with_ai: true,
      rows,
      balance: unchecked(["Read by AI: the balances were not checked"]),
    },
  };
}

export async function parseWithAi(ai: AiProvider, text: string): Promise<ParseOutcome> {
  let answer: Record<string, unknown>;
  try {
    answer = await ai.callTool({
      system:
        "You read bank statements. Record every transaction row exactly as printed: its date, its description, " +
        "its amount as printed (no sign) and whether money left the account (withdrawal) or came in (deposit). " +
        "Never invent rows; leave out balances, totals and headers.",
      user: text.slice(0, MAX_TEXT),
      tool: statementTool,
      timeoutMs: 60_000,
    });
  } catch (err) {
    return {
      ok: false,
      reason: "ai_validation_failed",
      message: `The AI reading failed: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  return validateAiStatement(text, answer);
}
