import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type PageSource, readPages } from "../../../../src/domains/data/pages";

/** An in-memory table read by offset; a statement is [table index, offset, limit]. */
type Stmt = { t: number; offset: number; limit: number };

function setup(sizes: number[], known: boolean, grown: number[] = []) {
  const taken: number[][] = sizes.map(() => []);
  const batches: Stmt[][] = [];
  const sources: PageSource<Stmt>[] = sizes.map((size, t) => {
    let offset = 0;
    return {
      left: known ? size : undefined,
      page: (limit) => ({ t, offset, limit }),
      take: (rows) => {
        taken[t]!.push(...rows.map((r) => Number(r.i)));
        offset += rows.length;
      },
    };
  });
  // `grown`: rows added after the counts were read (a count is then short).
  const actual = sizes.map((n, t) => n + (grown[t] ?? 0));
  const run = async (stmts: Stmt[]) => {
    batches.push(stmts);
    return stmts.map(({ t, offset, limit }) =>
      Array.from({ length: Math.max(0, Math.min(limit, actual[t]! - offset)) }, (_, k) => ({
        i: offset + k,
      })),
    );
  };
  return { sources, run, taken, batches, actual };
}

const rowsAsked = (b: Stmt[]) => b.reduce((n, s) => n + s.limit, 0);
const every = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("readPages: several tables' pages in one batch, a bounded number of rows per batch", () => {
  it("reads a household of small tables in one batch, and a large one in batches of the budget", async () => {
    const small = setup([3, 0, 5, 1], true);
    await readPages(small.run, small.sources, { budget: 100, ordered: true });
    expect(small.batches).toHaveLength(1);
    expect(small.taken).toEqual([every(3), [], every(5), every(1)]);

    const large = setup([250, 10, 0], true);
    await readPages(large.run, large.sources, { budget: 100, ordered: true });
    expect(large.batches.map((b) => b.length)).toEqual([1, 1, 3]);
    expect(large.taken).toEqual([every(250), every(10), []]);
  });

  it("a source past its estimate (rows added since the count) goes on in full pages, not row by row", async () => {
    const s = setup([0, 2], true, [250]);
    await readPages(s.run, s.sources, { budget: 100, ordered: true });
    expect(s.taken).toEqual([every(250), every(2)]);
    expect(s.batches.length).toBeLessThanOrEqual(5); // row by row it would be 250
  });

  it("never asks for more than the budget, and reads every row once, in order when ordered", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(60), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(20), { maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 50 }),
        async (sizes, grown, known, ordered, budget) => {
          const s = setup(sizes, known, grown);
          const order: number[] = [];
          for (const src of s.sources) {
            const take = src.take.bind(src);
            const t = s.sources.indexOf(src);
            src.take = (rows, last) => {
              if (rows.length) order.push(t);
              return take(rows, last);
            };
          }
          await readPages(s.run, s.sources, { budget, ordered });
          for (const b of s.batches) expect(rowsAsked(b)).toBeLessThanOrEqual(budget);
          expect(s.taken).toEqual(s.actual.map(every));
          if (ordered) expect(order).toEqual([...order].sort((a, b) => a - b));
        },
      ),
      { numRuns: 200 },
    );
  });
});
