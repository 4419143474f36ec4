/**
 * The model's proposal of a PDF layout's column marks (pure). The prompt is the first page or two
 * of laid-out lines (bounded: at most MAX_LINES lines and MAX_CHARS characters, never the file);
 * the model answers, for each column, one cell it belongs to (line number and the cell's text), as
 * a person clicks a value in the review. The answer is checked with zod and every cell must stand
 * on the page; its x-span becomes the mark. Whether the marks are right is not the model's to say:
 * the caller reads the rows with them and keeps them only when the balances add up.
 */
import { z } from "zod";
import type { ToolSpec } from "../../../ai/provider";
import type { Line } from "../parsers/layout";
import type { LayoutMarks, Role, Span } from "./read";

export const MAX_LINES = 90;
export const MAX_CHARS = 9_000;

const cell = {
  type: ["object", "null"],
  properties: {
    line: { type: "integer", description: "The line number (L…) the cell stands on" },
    text: { type: "string", description: "The cell's text exactly as shown" },
  },
  required: ["line", "text"],
};

export const proposeTool: ToolSpec = {
  name: "propose_statement_columns",
  description:
    "Point at one cell of each column of the statement's transaction table: the date, the description, " +
    "the amount (one signed column) or the withdrawal and deposit columns, and the running balance.",
  parameters: {
    type: "object",
    properties: {
      date: cell,
      description: cell,
      amount: cell,
      withdrawal: cell,
      deposit: cell,
      balance: cell,
    },
    required: ["date", "description"],
  },
};

export const PROPOSE_SYSTEM =
  "You look at a bank statement page laid out as text. Each line is `L<n>:` followed by its cells, each " +
  "cell as `[x] text` where x is its left edge in points. Find the transaction table and, for each of its " +
  "columns, name one cell of a transaction row in that column: date, description, and either amount (one " +
  "column with signs) or withdrawal and deposit (two columns), and balance when the table has one. Use " +
  "null for a column the table does not have. Copy the cell's text exactly; never invent one.";

/** The page's first lines as the model sees them: numbered, each cell with its left edge. */
export function promptLines(lines: readonly Line[]): { text: string; shown: Line[] } {
  const firstPage = lines[0]?.page ?? 1;
  const pages = lines.filter((l) => l.page <= firstPage + 1);
  const shown: Line[] = [];
  const out: string[] = [];
  let size = 0;
  for (const l of pages) {
    const row = `L${shown.length + 1}: ${l.items.map((i) => `[${Math.round(i.x)}] ${i.str.slice(0, 80)}`).join("  ")}`;
    if (shown.length >= MAX_LINES || size + row.length + 1 > MAX_CHARS) break;
    shown.push(l);
    out.push(row);
    size += row.length + 1;
  }
  return { text: out.join("\n"), shown };
}

const Cell = z.object({ line: z.number().int().min(1), text: z.string().trim().min(1).max(200) });
export const ProposalAnswer = z
  .object({
    date: Cell,
    description: Cell,
    amount: Cell.nullish(),
    withdrawal: Cell.nullish(),
    deposit: Cell.nullish(),
    balance: Cell.nullish(),
  })
  .refine((a) => a.amount || a.withdrawal || a.deposit, "no amount, withdrawal or deposit column");

const ROLES: Role[] = ["date", "description", "amount", "withdrawal", "deposit", "balance"];
const tenth = (v: number) => Math.round(v * 10) / 10;
const norm = (s: string) => s.replace(/\s+/g, " ").trim();

/** The marks the answer points at, or why it cannot be used (in words). */
export function marksFromAnswer(
  answer: unknown,
  shown: readonly Line[],
): { ok: true; marks: LayoutMarks } | { ok: false; why: string } {
  const parsed = ProposalAnswer.safeParse(answer);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const why = issue?.path.length
      ? `its ${issue.path.join(".")} is not a cell of the page`
      : (issue?.message ?? "invalid");
    return { ok: false, why: `the answer was not a set of column marks (${why})` };
  }
  const marks: Partial<Record<Role, Span>> = {};
  for (const role of ROLES) {
    const c = parsed.data[role];
    if (!c) continue;
    const want = norm(c.text);
    const onLine = shown[c.line - 1]?.items.find((i) => norm(i.str) === want);
    const it = onLine ?? shown.flatMap((l) => l.items).find((i) => norm(i.str) === want);
    if (!it) return { ok: false, why: `the ${role} cell “${want.slice(0, 40)}” is not on the page` };
    // Rounded as the review's page text is, so the marks fall on the cells it shows.
    marks[role] = { x0: tenth(it.x), x1: tenth(it.x + it.w) };
  }
  return { ok: true, marks: marks as LayoutMarks };
}
