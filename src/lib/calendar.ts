/** Calendar dates typed by people or models: `YYYY-MM-DD` that names a real day. */
import { z } from "zod";

/** A YYYY-MM-DD that names a day of the calendar (Date alone rolls 2024-02-30 over to March 1). */
export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** The zod shape of such a date (422 for 2024-02-30 as for "yesterday"). */
export const calendarDate = (message = "must be a date as YYYY-MM-DD") =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine(isCalendarDate, "is not a day of the calendar");
