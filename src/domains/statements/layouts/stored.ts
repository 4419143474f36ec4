/**
 * The stored JSON of a taught layout (statement_layouts.header, .marks), read with its shape; and
 * the layout's ledger image (the whole row) the activity revert reads.
 */
import { z } from "zod";
import { exactShape, storedJson } from "../../../db/json";
import type { StatementLayoutRecord } from "../../../db/schema";
import type { HeaderWord } from "./fingerprint";
import { LayoutMarks } from "./schemas";

const headerArray = z.array(z.object({ t: z.string(), x: z.number() }));
exactShape<z.infer<typeof headerArray>, HeaderWord[]>(true);

export const readLayoutMarks = storedJson("statement_layouts.marks", LayoutMarks);
export const readLayoutHeader = storedJson("statement_layouts.header", headerArray);

const layoutObject = z.object({
  id: z.string(),
  name: z.string(),
  institution: z.string(),
  fingerprint: z.string(),
  header: headerArray,
  marks: LayoutMarks,
  source_statement_id: z.string().nullable(),
  match_count: z.number().int(),
  last_matched_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
exactShape<z.infer<typeof layoutObject>, StatementLayoutRecord>(true);
/** A `statement-layout` ledger image: the whole row, or null (the layout did not exist). */
export const LayoutImage = layoutObject.nullable();
