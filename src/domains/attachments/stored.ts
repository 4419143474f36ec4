/** The stored receipt read (attachments.parse_json), read with its shape. */
import { z } from "zod";
import { storedJson } from "../../db/json";

/** What a receipt read stored: the facts (total is a decimal amount, as the API shows it) and provenance. */
const receiptSchema = z.looseObject({
  merchant: z.string().optional(),
  date: z.string().optional(),
  total: z.number().optional(),
});
export type StoredReceipt = z.infer<typeof receiptSchema>;

/** The stored read; unreadable → shown as not parsed (logged). */
export const readReceipt = storedJson("attachments.parse_json", receiptSchema.nullable(), {
  value: () => null,
});
