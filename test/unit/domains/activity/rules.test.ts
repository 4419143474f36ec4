import { describe, expect, it } from "vitest";
import { z } from "zod";
import { StoredJsonError } from "../../../../src/db/json";
import { imageReader, readImage } from "../../../../src/domains/activity/images";
import {
  BULK_ROW_CAP,
  canonicalJson,
  changedKeys,
  describeChange,
  imagesRejection,
  retentionCutoff,
  sameImage,
} from "../../../../src/domains/activity/rules";
import {
  getReverter,
  type Reverter,
  registerReverters,
  typedReverter,
} from "../../../../src/domains/activity/reverters";
import { isJournaled, NOT_JOURNALED } from "../../../../src/http/activity";

describe("image comparison", () => {
  it("ignores key order and undefined fields", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    expect(sameImage({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(sameImage({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameImage(null, undefined)).toBe(true);
    expect(sameImage({}, null)).toBe(false);
  });

  it("lists changed top-level keys and describes the change", () => {
    expect(changedKeys({ a: 1, b: 2 }, { a: 1, b: 3, c: 4 })).toEqual(["b", "c"]);
    expect(describeChange("config", { a: 1 }, { a: 2 })).toBe("config: changed a");
    expect(describeChange("override", {}, { category: "x" })).toBe("created override");
    expect(describeChange("override", { category: "x" }, null)).toBe("deleted override");
    expect(describeChange("config", { a: 1 }, { a: 1 })).toBe("config: no change");
    const many = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, i]));
    expect(describeChange("config", {}, { ...many, z: 1 }).startsWith("created")).toBe(true);
    expect(describeChange("config", { x: 0 }, many)).toMatch(/and 3 more$/);
  });
});

describe("caps", () => {
  it("keeps images up to 200 rows and under 400 KB", () => {
    expect(imagesRejection(1, { a: 1 }, { a: 2 })).toBeNull();
    expect(imagesRejection(BULK_ROW_CAP, {}, {})).toBeNull();
    expect(imagesRejection(BULK_ROW_CAP + 1, {}, {})).toMatch(/200-row/);
    const big = { blob: "x".repeat(200_000) };
    expect(imagesRejection(1, big, big)).toMatch(/size cap/);
    expect(imagesRejection(1, big, null)).toBeNull();
  });
});

describe("retention and parsing", () => {
  it("cuts off at 90 days", () => {
    expect(retentionCutoff(new Date("2030-04-01T00:00:00.000Z"))).toBe("2030-01-01T00:00:00.000Z");
  });

  it("reads stored images back as objects only (decoded by drizzle or as JSON text)", () => {
    expect(readImage({ a: 1 })).toEqual({ a: 1 });
    expect(readImage('{"a":1}')).toEqual({ a: 1 });
    expect(readImage(null)).toBeNull();
    expect(readImage([1])).toBeNull();
    expect(readImage("[1]")).toBeNull();
    expect(readImage("not json")).toBeNull();
  });

  it("reads a kind's before image in its reverter's shape, or names what is wrong", () => {
    const read = imageReader(
      "unit-kind",
      z.object({ status: z.string(), rows: z.record(z.string(), z.number()) }),
    );
    expect(read({ status: "done", rows: { "1": 2 }, extra: true })).toEqual({
      status: "done",
      rows: { "1": 2 },
    });
    expect(read('{"status":"open","rows":{}}')).toEqual({ status: "open", rows: {} });
    expect(() => read(null)).toThrow(StoredJsonError); // null only where the kind's shape allows it
    expect(imageReader("unit-kind", z.object({ n: z.number() }).nullable())(null)).toBeNull();
    expect(() => read({ status: 3, rows: {} })).toThrow(StoredJsonError);
    expect(() => read({ status: "x", rows: { "1": "two" } })).toThrow(/before_json \(unit-kind\).*rows\.1/);
  });
});

describe("what is journaled", () => {
  it.each([
    ["PUT", "/api/v1/config", true],
    ["POST", "/api/v1/activity/act_1/revert", true],
    ["DELETE", "/api/v1/auth/tokens/tok_1", true],
    ["GET", "/api/v1/config", false],
    ["OPTIONS", "/api/v1/config", false],
    ["POST", "/api/v1/auth/login", false],
    ["POST", "/api/v1/auth/set-password/", false],
    ["POST", "/api/v1/transactions/search-by-filter", false],
    ["POST", "/openapi.json", false],
  ])("%s %s -> %s", (method, path, expected) => {
    expect(isJournaled(method, path)).toBe(expected);
  });

  it("keeps the exception list to SPEC's two kinds: the auth routes and reads that use POST", () => {
    const postReads = [
      "POST /api/v1/transactions/search-by-filter",
      "POST /api/v1/data/export",
      "POST /api/v1/data/export/jobs",
      "POST /api/v1/data/import/preview",
      "POST /api/v1/config/test-model-key",
      "POST /api/v1/config/test-object-backup",
    ];
    for (const entry of NOT_JOURNALED) {
      expect(entry.startsWith("POST /api/v1/auth/") || postReads.includes(entry), entry).toBe(true);
    }
    expect(NOT_JOURNALED.size).toBeLessThanOrEqual(12);
  });
});

describe("reverter registry", () => {
  it("knows only the kinds registered with it (app.ts registers every domain's set)", () => {
    const one: Reverter = { current: async () => ({ v: 1 }), restore: async () => undefined };
    const two: Reverter = { current: async () => null, restore: async () => undefined };
    expect(getReverter("unit-kind-a")).toBeUndefined();
    registerReverters({ "unit-kind-a": one }, { "unit-kind-b": two });
    expect(getReverter("unit-kind-a")).toBe(one);
    expect(getReverter("unit-kind-b")).toBe(two);
    expect(getReverter("unit-kind-c")).toBeUndefined();
  });

  it("keeps a typed reverter's image shape for the ledger to read with", () => {
    const image = z.object({ n: z.number() });
    const typed = typedReverter(image, {
      current: async () => null,
      restore: async (_c, _id, b) => ({ recreated_categories: [String(b.n)] }),
    });
    expect(typed.image).toBe(image);
  });
});
