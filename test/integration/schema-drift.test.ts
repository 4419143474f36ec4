import { env } from "cloudflare:test";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";
import { diffShapes, shapeOfDatabase, shapeOfDrizzle } from "../helpers/schema-shape";

describe("src/db/schema.ts and migrations/ agree", () => {
  it("every table, column, type, not-null, default, primary key and index matches", async () => {
    const diff = diffShapes(shapeOfDrizzle(schema), await shapeOfDatabase(env.DB));
    expect(diff).toEqual([]);
  });

  it("the comparison catches drift (a changed type, a missing column, a missing index, an extra table)", async () => {
    const db = await shapeOfDatabase(env.DB);
    const drifted = {
      ...schema,
      categories: sqliteTable("categories", {
        name: text("name").primaryKey(),
        group_name: integer("group_name"),
        position: integer("position").notNull().default(0),
      }),
      extra: sqliteTable("not_migrated", { id: text("id").primaryKey() }),
    };
    const diff = diffShapes(shapeOfDrizzle(drifted), db);
    expect(diff).toContain("categories.group_name: type is INTEGER in schema.ts, TEXT in the migrations");
    expect(diff).toContain("categories.icon: in the migrations only");
    expect(diff).toContain("table not_migrated: in src/db/schema.ts, not in the migrations");
    const { transactions: _t, ...withoutTx } = schema;
    const noIndexDiff = diffShapes(
      shapeOfDrizzle({ ...withoutTx, transactions: sqliteTable("transactions", { ...txColumnsOnly() }) }),
      db,
    );
    expect(noIndexDiff.some((d) => d.includes("index idx_transactions_month in the migrations only"))).toBe(
      true,
    );
  });
});

/** The transactions columns without their indexes (a copy made from the real table's columns). */
function txColumnsOnly() {
  const { ForwardedTo: _a, DateFileName: _b, ...rest } = schema.transactions;
  void rest;
  return {
    ForwardedTo: text("ForwardedTo").notNull(),
    DateFileName: text("DateFileName").notNull(),
  };
}
