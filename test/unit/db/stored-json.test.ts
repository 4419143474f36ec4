import { getTableColumns, is } from "drizzle-orm";
import { getTableConfig, SQLiteTable, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { decodeJsonCell, NOT_JSON, StoredJsonError, storedJson } from "../../../src/db/json";
import { jsonText } from "../../../src/db/json-column";
import * as schema from "../../../src/db/schema";
import { kvRead } from "../../../src/db/kv";
import { readContext } from "../../../src/ingest/stored";

describe("storedJson: one reader per JSON column", () => {
  const read = storedJson("t.col", z.object({ n: z.number() }));
  const lenient = storedJson("t.col2", z.array(z.string()), { value: () => [] });

  it("reads a decoded value and the JSON text a hand-written query returns alike", () => {
    expect(read({ n: 1 })).toEqual({ n: 1 });
    expect(read('{"n":2}')).toEqual({ n: 2 });
    // A value stored as JSON text inside JSON (an old image written back) still reads.
    expect(lenient(JSON.stringify(["a", "b"]))).toEqual(["a", "b"]);
  });

  it("a value out of shape is a clear error naming the column, or the fallback (logged)", () => {
    expect(() => read({ n: "1" })).toThrow(StoredJsonError);
    expect(() => read({ n: "1" })).toThrow(/t\.col.*n:/);
    expect(() => read("not json")).toThrow(/t\.col/);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(lenient({ oops: true })).toEqual([]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("stored_json.invalid"));
    warn.mockRestore();
  });
});

describe("a JSON column's cell that is not JSON reads as NOT_JSON, never a throw", () => {
  const jsonColumns = Object.values(schema)
    .filter((v) => is(v, SQLiteTable))
    .flatMap((t) =>
      Object.values(getTableColumns(t as SQLiteTable))
        .filter((c) => c.dataType === "json")
        .map((c) => ({ name: `${getTableConfig(t as SQLiteTable).name}.${c.name}`, c })),
    );

  it("every JSON-mode column of the schema is declared with jsonText (drizzle's own throws)", () => {
    expect(jsonColumns.length).toBeGreaterThan(15);
    const throwing = jsonColumns.filter(({ c }) => c.mapFromDriverValue("{oops") !== NOT_JSON);
    expect(throwing.map((x) => x.name)).toEqual([]);
    for (const { c } of jsonColumns) {
      expect(c.mapFromDriverValue('{"a":[1,2]}')).toEqual({ a: [1, 2] });
      expect(c.mapToDriverValue({ a: 1 })).toBe('{"a":1}');
      expect(c.getSQLType()).toBe("text");
    }
    // The check has teeth: drizzle's plain JSON mode throws on the same cell.
    const plain = getTableColumns(sqliteTable("t", { v: text("v", { mode: "json" }) })).v;
    expect(() => plain.mapFromDriverValue("{oops")).toThrow(SyntaxError);
    const ours = getTableColumns(sqliteTable("t", { v: jsonText("v").notNull().$type<string[]>() })).v;
    expect(ours).toMatchObject({ dataType: "json", columnType: "SQLiteTextJson", notNull: true });
  });

  it("the readers take NOT_JSON as out of shape: the fallback (logged) or the column's named error", () => {
    expect(decodeJsonCell("[1]")).toEqual([1]);
    expect(decodeJsonCell("")).toBe(NOT_JSON);
    expect(decodeJsonCell("nope")).toBe(NOT_JSON);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(storedJson("t.a", z.array(z.string()).nullable(), { value: () => null })(NOT_JSON)).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("not JSON"));
    warn.mockRestore();
    expect(() => storedJson("t.b", z.unknown())(NOT_JSON)).toThrow(StoredJsonError);
    expect(() => storedJson("t.b", z.unknown())(NOT_JSON)).toThrow(/t\.b.*not JSON/);
  });
});

describe("kv_state declared keys", () => {
  it("reads each key with its own schema; a value out of shape reads as absent", () => {
    expect(kvRead("ai_categorization", { status: "degraded", reason: "x" })).toEqual({
      status: "degraded",
      reason: "x",
      consecutive_errors: 0,
    });
    expect(kvRead("quarantine_notice:cibc", "2024-10-20T13:00:00.000Z")).toBe("2024-10-20T13:00:00.000Z");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(kvRead("wording:bank.example", { fails: "3" })).toBeNull();
    warn.mockRestore();
    // @ts-expect-error an undeclared key is refused at compile time
    expect(kvRead("resolver_version", "x")).toBeNull();
  });
});

describe("the context snapshot: cents, decimal-era snapshots still read", () => {
  it("reads a marked cents snapshot as is and converts an unmarked decimal one", () => {
    const cents = {
      money: "cents",
      category_month_total: 6419,
      merchant_month_count: 1,
      category_budget_target: 20000,
      category_budget_pct: 32.1,
    };
    expect(readContext(cents)).toEqual(cents);
    expect(readContext(JSON.stringify({ category_month_total: 64.19, merchant_month_count: 1 }))).toEqual({
      money: "cents",
      category_month_total: 6419,
      merchant_month_count: 1,
      category_budget_target: null,
      category_budget_pct: null,
    });
    expect(readContext(null)).toBeNull();
  });
});
