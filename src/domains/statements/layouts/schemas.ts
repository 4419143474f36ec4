/** Request and response shapes of the taught-layout routes. */
import { z } from "zod";

const Span = z
  .object({ x0: z.number().min(-100).max(5000), x1: z.number().min(-100).max(5000) })
  .refine((s) => s.x1 >= s.x0, "x1 must not be left of x0")
  .meta({ id: "LayoutSpan", description: "A column's left and right edges in PDF points" });

export const LayoutMarks = z
  .object({
    date: Span,
    description: Span,
    amount: Span.optional(),
    withdrawal: Span.optional(),
    deposit: Span.optional(),
    balance: Span.optional(),
  })
  .meta({
    id: "LayoutMarks",
    description:
      "Which x-span is each column: date, description, and the amount (or withdrawal and deposit), balance",
  });

export const TeachLayoutRequest = z
  .object({
    marks: LayoutMarks,
    name: z.string().trim().max(100).optional(),
    institution: z.string().trim().max(100).optional(),
    proposed: z
      .boolean()
      .optional()
      .describe(
        "The marks are the model's proposal as shown, confirmed by the person (said in the activity log)",
      ),
  })
  .meta({ id: "TeachLayoutRequest" });

export const StatementLayout = z
  .object({
    id: z.string(),
    name: z.string(),
    institution: z.string(),
    header: z.array(z.string()).describe("The header words the layout is recognised by"),
    marks: LayoutMarks,
    match_count: z.number().int(),
    last_matched_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "StatementLayout" });

export const StatementLayoutList = z
  .object({ layouts: z.array(StatementLayout) })
  .meta({ id: "StatementLayoutList" });

export const PageTextResponse = z
  .object({
    pages: z.number().int(),
    lines: z.array(
      z.object({
        page: z.number().int(),
        y: z.number(),
        items: z.array(z.object({ x: z.number(), w: z.number(), str: z.string() })),
      }),
    ),
  })
  .meta({ id: "StatementPageText", description: "The first two pages' text as laid out (PDF points, y up)" });

export const LayoutIdParams = z.object({ layout_id: z.string().min(1).max(60) });
export const RenameLayoutRequest = z
  .object({ name: z.string().trim().min(1).max(100) })
  .meta({ id: "RenameLayoutRequest" });

export const LayoutProposalResponse = z
  .object({
    asked: z.boolean().describe("Whether the model was asked (document parsing has a provider)"),
    proposal: z
      .object({
        marks: LayoutMarks,
        model: z.string().describe("The model that proposed the marks"),
        rows: z.number().int().describe("Rows the marks read"),
        opening: z.number().describe("The printed opening balance the rows start from"),
        closing: z.number().describe("The printed closing balance the rows add up to"),
      })
      .nullable()
      .describe("Marks proposed by the model whose rows balance; null when none"),
    reason: z.string().nullable().describe("Why there is no proposal, in words"),
  })
  .meta({
    id: "StatementLayoutProposal",
    description:
      "Column marks proposed by the document-parsing model, kept only when the rows they read add up to the printed balances",
  });
