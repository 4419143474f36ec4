/**
 * Stored JSON, read with a shape. A JSON-in-TEXT column is declared in drizzle's JSON mode
 * (`text(name, { mode: "json" }).$type<T>()`: drizzle stringifies on write and parses on read) and
 * gets ONE reader made here from a zod schema: `storedJson(column, schema, fallback?)`. The reader
 * takes what drizzle decoded (or the text a hand-written `sql` query returned) and either gives the
 * declared shape, or:
 * - with a fallback (state that can be rebuilt or shown empty): logs one line and returns it;
 * - without one: throws `StoredJsonError` naming the column and what was wrong.
 * Never a silent wrong shape.
 */
import type { z } from "zod";
import { log } from "../lib/log";

export class StoredJsonError extends Error {
  constructor(
    readonly column: string,
    detail: string,
  ) {
    super(`Stored ${column} is not in its declared shape: ${detail}`);
    this.name = "StoredJsonError";
  }
}

/**
 * What a JSON column's cell reads as when its text is not JSON (src/db/json-column.ts): never a
 * value of any shape, so every reader below takes it as out of shape (its fallback, or its error).
 */
export const NOT_JSON: unique symbol = Symbol("not json");

/** A JSON column's stored text → its value; NOT_JSON when the text is not JSON (never throws). */
export function decodeJsonCell(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

/** JSON text → value; NOT_JSON when the text is not JSON. Non-strings pass through (already decoded). */
const decode = (value: unknown): unknown => (typeof value === "string" ? decodeJsonCell(value) : value);

export type StoredJsonReader<T> = (value: unknown) => T;

type Keys<T> = T extends readonly (infer E)[] ? Keys<E> : keyof NonNullable<T>;
/** true when A and B accept the same values and name the same keys (an optional key counts). */
export type Same<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [Keys<A>] extends [Keys<B>]
      ? [Keys<B>] extends [Keys<A>]
        ? true
        : false
      : false
    : false
  : false;

/**
 * A compile-time check that a column's zod object declares exactly its TypeScript type: zod drops
 * unknown keys on read, so a field added to the type and not to the schema would vanish silently.
 * Use: `exactShape<z.infer<typeof schema>, T>(true)` (a mismatch does not type-check).
 */
export const exactShape = <A, B>(same: Same<A, B>): Same<A, B> => same;

/**
 * The reader of one JSON column. It takes the value drizzle's JSON mode decoded, or the JSON text a
 * hand-written `sql` query returned (a string the schema does not accept is decoded first).
 */
export function storedJson<T>(
  column: string,
  schema: z.ZodType<T>,
  fallback?: { value: () => T },
): StoredJsonReader<T> {
  return (value) => {
    // JSON text (a hand-written `sql` query's cell, a packed row's cell) is decoded first: trying
    // the text itself first would build a failed parse's error for every such row. Text the schema
    // takes as it is (not JSON, or JSON of another type) is still tried as text.
    if (value === NOT_JSON) return invalid(column, "the stored text is not JSON", fallback);
    let res: ReturnType<typeof schema.safeParse> | null = null;
    if (typeof value === "string") {
      const decoded = decode(value);
      if (decoded !== NOT_JSON) res = schema.safeParse(decoded);
    }
    if (!res?.success) {
      const asIs = schema.safeParse(value);
      // A failure names what was wrong with the decoded JSON when there was any.
      if (asIs.success || !res) res = asIs;
    }
    if (res.success) return res.data;
    const issue = res.error.issues[0];
    const detail = `${issue?.path.length ? `${issue.path.join(".")}: ` : ""}${issue?.message ?? "invalid"}`;
    return invalid(column, detail, fallback);
  };
}

/** A stored value out of shape: the fallback (logged), or the column's named error. */
function invalid<T>(column: string, detail: string, fallback?: { value: () => T }): T {
  if (fallback) {
    log("warn", "stored_json.invalid", { column, detail });
    return fallback.value();
  }
  throw new StoredJsonError(column, detail);
}
