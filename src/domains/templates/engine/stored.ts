/** The stored JSON of a learned template (alert_templates.pattern, .subject_words), read with its shape. */
import { z } from "zod";
import { exactShape, storedJson } from "../../../db/json";
import type { TemplatePattern, Token } from "./types";

const token: z.ZodType<Token> = z.union([
  z.object({ lit: z.string() }),
  z.object({
    slot: z.enum(["amount", "merchant", "date", "time", "num", "wild", "sp"]),
    max: z.number().optional(),
    opt: z.boolean().optional(),
  }),
]);

const patternObject = z.object({
  version: z.literal(1),
  lines: z.array(z.object({ before: z.array(token).nullable(), line: z.array(token) })),
  amount: z.object({
    decimal: z.enum([".", ","]),
    group: z.enum([",", ".", " ", "’", "'", ""]),
    cents: z.boolean(),
  }),
  date: z.string().nullable(),
  unwrap: z.boolean().optional(),
  labels: z.array(z.string()).optional(),
  sources: z.array(z.string()).optional(),
});

exactShape<z.infer<typeof patternObject>, TemplatePattern>(true);
const patternSchema: z.ZodType<TemplatePattern> = patternObject;

/** The template's pattern; an unreadable one reads nothing (null: the template is skipped, logged). */
export const readTemplatePattern = storedJson("alert_templates.pattern", patternSchema.nullable(), {
  value: () => null,
});
/** The subject's fixed words; unreadable → none (logged). */
export const readSubjectWords = storedJson("alert_templates.subject_words", z.array(z.string()), {
  value: () => [],
});
