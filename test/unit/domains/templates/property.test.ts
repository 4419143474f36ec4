// Issue 18's property: random edits to the fixed text around a learned template's anchors never
// yield a wrong amount or merchant, only no match (a quarantine).
import { asCents } from "../../../../src/lib/money";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deriveTemplate, readWithPattern } from "../../../../src/domains/templates/engine";

type Part = { lit: string } | { value: "amount" | "merchant" | "date" };

/** Alert shapes: the value line's parts, with a fixed line above and below. */
const SHAPES: { parts: Part[]; amount: (c: number) => string; date: string }[] = [
  {
    parts: [
      { lit: "You spent $" },
      { value: "amount" },
      { lit: " at " },
      { value: "merchant" },
      { lit: " on " },
      { value: "date" },
      { lit: " at 3:45 PM." },
    ],
    amount: (c) => `${Math.floor(c / 100).toLocaleString("en-US")}.${String(c % 100).padStart(2, "0")}`,
    date: "Oct 12, 2026",
  },
  {
    parts: [
      { lit: "Purchase at " },
      { value: "merchant" },
      { lit: " for 9.99 USD (" },
      { value: "amount" },
      { lit: " CAD) on " },
      { value: "date" },
      { lit: "." },
    ],
    amount: (c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, "0")}`,
    date: "12 Oct 2026",
  },
  {
    parts: [
      { lit: "Achat de " },
      { value: "amount" },
      { lit: " $ chez " },
      { value: "merchant" },
      { lit: " le " },
      { value: "date" },
      { lit: "." },
    ],
    amount: (c) => `${Math.floor(c / 100)},${String(c % 100).padStart(2, "0")}`,
    date: "2026-10-12",
  },
];

const merchantArb = fc
  .array(fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"), { minLength: 2, maxLength: 8 })
  .chain((a) => fc.tuple(fc.constant(a.join("")), fc.constantFrom("", " #12", " MART", " 7")))
  .map(([w, s]) => `${w}${s}`);

const editArb = fc.record({
  kind: fc.constantFrom<"insert" | "delete" | "replace">("insert", "delete", "replace"),
  at: fc.nat(),
  ch: fc.constantFrom(..."aZ $.,:#0123456789-x"),
});

describe("learned templates never read a wrong amount or merchant", () => {
  // 2,500 cases (a few seconds; more under coverage and load): each derives a template and reads the edited email through every reading path.
  it("random edits around the anchors yield the right values or no match", { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(
        fc.nat({ max: SHAPES.length - 1 }),
        fc.integer({ min: 1, max: 9_999_999 }),
        merchantArb,
        fc.array(editArb, { minLength: 1, maxLength: 3 }),
        (shapeIx, cents, merchant, edits) => {
          const shape = SHAPES[shapeIx]!;
          const values = { amount: shape.amount(cents), merchant, date: shape.date };
          // The value line, and where its fixed text lies (edits go strictly inside it).
          let line = "";
          const fixed: [number, number][] = [];
          for (const p of shape.parts) {
            const s = "lit" in p ? p.lit : values[p.value];
            if ("lit" in p) fixed.push([line.length, line.length + s.length]);
            line += s;
          }
          const body = (l: string) => `Hello,\nCard ending 4821.\n${l}\nThank you.`;
          const learned = deriveTemplate({
            fromEmail: "alerts@bank.example",
            subject: "Alert",
            body: body(line),
            sentIso: "2026-10-12",
            amount: asCents(cents),
            merchant,
            date: "2026-10-12",
          });
          expect(learned.ok).toBe(true);
          if (!learned.ok) return;
          let edited = line;
          const spans = [...fixed];
          let applied: (typeof edits)[number] | undefined;
          for (const e of edits) {
            const [from, to] = spans[e.at % spans.length]!;
            const len = to - from;
            if (e.kind === "insert") {
              if (len < 2) continue;
              const at = from + 1 + (e.at % (len - 1));
              edited = edited.slice(0, at) + e.ch + edited.slice(at);
            } else {
              const at = from + (e.at % len);
              if (e.kind === "replace" && edited[at] === e.ch) continue;
              edited = edited.slice(0, at) + (e.kind === "replace" ? e.ch : "") + edited.slice(at + 1);
            }
            applied = e;
            break; // one edit per case keeps the fixed-text offsets exact
          }
          const r = readWithPattern(learned.template.pattern, body(edited), "2026-10-12");
          if (r.ok) {
            // A digit or mark typed right beside the amount changes the printed amount itself
            // ("$" → "2": "20.01"): read by its anchors, the email's own figure is the value.
            // The figure may print without the shape's thousands mark ("$" → "6": "6100.00").
            const figure = shape.amount(r.values.amount);
            const printed =
              /[0-9.,]/.test(applied?.ch ?? "") &&
              [figure, figure.replace(/,(?=\d{3}\b)/g, "")].some((f) => edited.includes(f));
            if (!printed) expect(r.values.amount).toBe(cents);
            expect(r.values.merchant).toBe(merchant);
          }
        },
      ),
      { numRuns: 2500 },
    );
  });
});
