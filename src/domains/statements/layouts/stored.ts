/** The stored JSON of a taught layout (statement_layouts.header, .marks), read with its shape. */
import { z } from "zod";
import { storedJson } from "../../../db/json";
import type { HeaderWord } from "./fingerprint";
import type { LayoutMarks } from "./read";

const span = z.object({ x0: z.number(), x1: z.number() });

const marksSchema: z.ZodType<LayoutMarks> = z.object({
  date: span,
  description: span,
  amount: span.optional(),
  withdrawal: span.optional(),
  deposit: span.optional(),
  balance: span.optional(),
});

const headerSchema: z.ZodType<HeaderWord[]> = z.array(z.object({ t: z.string(), x: z.number() }));

export const readLayoutMarks = storedJson("statement_layouts.marks", marksSchema);
export const readLayoutHeader = storedJson("statement_layouts.header", headerSchema);
