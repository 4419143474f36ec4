/**
 * The stored JSON maps of a transaction row, read with their shape: `CategoryAudit`,
 * `ExtractionAudit` (objects; older or imported rows may hold other keys, which the API's output
 * leaves out) and `TransactionContext` (the month-to-date snapshot: cents, marked `"money": "cents"`;
 * rows written before hold the API's decimal amounts, unmarked, and are converted here). A value
 * that is not in shape reads as absent (logged): these maps explain a row, they never decide one.
 */
import { z } from "zod";
import { storedJson } from "../db/json";
import { type Cents, toCents, roundCents } from "../lib/money";
import type { TransactionContext } from "./types";

// Any JSON object, taken as it is (no copy: a list of 800 rows reads two of these per row).
const map = z
  .custom<Record<string, unknown>>((v) => typeof v === "object" && v !== null && !Array.isArray(v))
  .nullable();

/** transactions.CategoryAudit as an object, or null. */
export const readCategoryAudit = storedJson("transactions.CategoryAudit", map, { value: () => null });
/** transactions.ExtractionAudit as an object, or null. */
export const readExtractionAudit = storedJson("transactions.ExtractionAudit", map, { value: () => null });

const finite = z.number().refine(Number.isFinite);
const contextSchema = z
  .object({
    money: z.literal("cents").optional(),
    category_month_total: finite,
    merchant_month_count: finite,
    // Rows written before both were always present lack them: they read as null.
    category_budget_target: finite.nullable().optional(),
    category_budget_pct: finite.nullable().optional(),
  })
  .nullable();

const readContextJson = storedJson("transactions.TransactionContext", contextSchema, { value: () => null });

/** transactions.TransactionContext in cents (a decimal-era snapshot converted), or null. */
export function readContext(value: unknown): TransactionContext | null {
  const c = readContextJson(value);
  if (!c) return null;
  const cents = (x: number): Cents => (c.money === "cents" ? roundCents(x) : toCents(x));
  return {
    money: "cents",
    category_month_total: cents(c.category_month_total),
    merchant_month_count: Math.trunc(c.merchant_month_count),
    category_budget_target: c.category_budget_target == null ? null : cents(c.category_budget_target),
    category_budget_pct: c.category_budget_pct ?? null,
  };
}
