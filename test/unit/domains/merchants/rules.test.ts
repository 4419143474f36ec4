import { describe, expect, it } from "vitest";
import {
  analyze,
  cadenceDayCap,
  cadenceOf,
  classify,
  commonAmount,
  isChurned,
  isNew,
  isPriceAlert,
  merchantRecord,
  priceChange,
  variableThreshold,
} from "../../../../src/domains/merchants/rules";
import { intelligenceOut } from "../../../../src/domains/merchants/response";
import { toCents, asCents } from "../../../../src/lib/money";

// The rules take and give integer cents; the amounts below are written in dollars.
const c = (xs: number[]) => xs.map(toCents);
const M6 = ["2024-01", "2024-02", "2024-03", "2024-04", "2024-05", "2024-06"];
const countsOf = (amounts: number[]) => amounts.map((a) => (a > 0 ? 1 : 0));
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

describe("cadence: recurring means a regular rhythm with similar amounts", () => {
  const every = (start: string, step: number, n: number, amount: (i: number) => number) =>
    Array.from({ length: n }, (_, i) => ({
      day: dayOf(start) + Math.round(step * i),
      cents: toCents(amount(i)),
    }));
  it("monthly within a few days, weekly, every two weeks, quarterly and yearly", () => {
    const wobble = [0, 3, -2, 1, -3, 2];
    const monthly = every("2024-01-15", 30.44, 6, () => 15.99).map((c, i) => ({
      ...c,
      day: c.day + wobble[i]!,
    }));
    expect(cadenceOf(monthly, dayOf("2024-06-30"))).toEqual({ cadence: "monthly", usual: 1599 });
    expect(
      cadenceOf(
        every("2024-01-01", 7, 20, () => 12),
        dayOf("2024-05-18"),
      )?.cadence,
    ).toBe("weekly");
    expect(
      cadenceOf(
        every("2024-01-05", 14, 10, () => 80),
        dayOf("2024-05-20"),
      )?.cadence,
    ).toBe("every two weeks");
    expect(
      cadenceOf(
        every("2023-01-10", 91.3, 6, () => 240),
        dayOf("2024-06-30"),
      )?.cadence,
    ).toBe("quarterly");
    expect(
      cadenceOf(
        every("2022-03-01", 365.25, 3, () => 99),
        dayOf("2024-06-30"),
      )?.cadence,
    ).toBe("yearly");
  });
  it("the usual charge is the latest price after a change, and amounts may vary by a quarter", () => {
    const c = every("2024-01-03", 30.44, 6, (i) => (i < 3 ? 15.99 : 17.99));
    expect(cadenceOf(c, dayOf("2024-06-30"))?.usual).toBe(1799);
    const utility = every("2024-01-20", 30.44, 6, (i) => [80, 95, 72, 88, 90, 79][i]!);
    expect(cadenceOf(utility, dayOf("2024-06-30"))).toEqual({ cadence: "monthly", usual: 8800 });
  });
  it("a grocery store or an ATM (frequent, irregular) is not recurring; nor are wildly varied amounts", () => {
    const gaps = [2, 5, 1, 9, 3, 4, 6, 2, 8, 1, 3, 7, 2, 5];
    const start = dayOf("2024-01-02");
    const grocery = gaps.map((_, i) => ({
      day: start + gaps.slice(0, i + 1).reduce((a, b) => a + b, 0),
      cents: toCents(40 + ((i * 37) % 90)),
    }));
    expect(cadenceOf(grocery, dayOf("2024-03-31"))).toBeNull();
    const wild = every("2024-01-15", 30.44, 6, (i) => [20, 200, 35, 400, 15, 90][i]!);
    expect(cadenceOf(wild, dayOf("2024-06-30"))).toBeNull();
  });
  it("a cadence that stopped is not recurring; one due later this month is", () => {
    const m = every("2024-01-25", 30.44, 5, () => 10); // last 2024-05-25
    expect(cadenceOf(m, dayOf("2024-06-21"))?.cadence).toBe("monthly");
    expect(cadenceOf(m, dayOf("2024-08-31"))).toBeNull();
  });
  it("a merchant charged on more days than cadenceDayCap allows keeps no cadence (its charges go unread)", () => {
    for (const months of [2, 6, 12, 24]) {
      const window = months * 31;
      const cap = cadenceDayCap(months);
      // The densest series that keeps a cadence: every 6 days (weekly less its slack) across the window.
      const dense = Array.from({ length: Math.floor(window / 6) + 1 }, (_, i) => ({
        day: i * 6,
        cents: asCents(999),
      }));
      expect(cadenceOf(dense)?.cadence).toBe("weekly");
      expect(dense.length).toBeLessThanOrEqual(cap);
      // One more day than the cap in the window: three quarters of its gaps cannot each be 6+ days.
      const over = Array.from({ length: cap + 1 }, (_, i) => ({
        day: Math.floor((i * window) / (cap + 1)),
        cents: asCents(999),
      }));
      expect(cadenceOf(over)).toBeNull();
    }
  });

  it("two charges on one day count once; a single charge is never a cadence", () => {
    expect(cadenceOf([{ day: 1, cents: asCents(100) }], 2)).toBeNull();
    const doubled = every("2024-01-15", 30.44, 4, () => 5).flatMap((c) => [c, c]);
    expect(cadenceOf(doubled, dayOf("2024-04-30"))).toEqual({ cadence: "monthly", usual: 1000 });
  });
});

describe("recurrence", () => {
  it("variable threshold is two thirds of the window, at least 3", () => {
    expect(variableThreshold(6)).toBe(4);
    expect(variableThreshold(12)).toBe(8);
    expect(variableThreshold(24)).toBe(16);
    expect(variableThreshold(3)).toBe(3);
    expect(variableThreshold(1)).toBe(3);
  });

  it("common amount groups within 0.01 and prefers the most recent on ties", () => {
    expect(commonAmount(c([9.99, 10, 10.01, 0, 12]), [0, 1, 2, 4])).toEqual({ amount: 1000, months: 3 });
    expect(commonAmount(c([5, 5, 7, 7]), [0, 1, 2, 3])).toEqual({ amount: 700, months: 2 });
    expect(commonAmount(c([9.98, 10]), [0, 1])).toEqual({ amount: 1000, months: 1 });
    expect(commonAmount([], [])).toBeNull();
  });

  it("fixed: the same amount in 3+ months, covering half the active months", () => {
    const a = [15.99, 15.99, 0, 15.99, 0, 0];
    expect(classify(c(a), countsOf(a))).toBe("fixed");
    const within = [10, 10.01, 9.99, 0, 0, 0];
    expect(classify(c(within), countsOf(within))).toBe("fixed");
    const apart = [10, 10.02, 10.04, 0, 0, 0];
    expect(classify(c(apart), countsOf(apart))).toBe("lumpy");
  });

  it("variable: charged in 4 of 6 months with changing amounts; 3 of 6 is lumpy", () => {
    const v = [42.5, 38, 0, 51, 0, 47];
    expect(classify(c(v), countsOf(v))).toBe("variable");
    const l = [42.5, 0, 0, 51, 0, 47];
    expect(classify(c(l), countsOf(l))).toBe("lumpy");
    const one = [0, 0, 80, 0, 0, 0];
    expect(classify(c(one), countsOf(one))).toBe("none");
  });

  it("three coincidental equal months among many varied ones stay variable", () => {
    const a = [4.5, 4.5, 9, 4.5, 13.5, 7, 8, 11];
    expect(classify(c(a), countsOf(a), 8)).toBe("variable");
  });

  it("short windows cannot be recurring", () => {
    expect(classify(c([10, 10]), [1, 1], 2)).toBe("lumpy");
    expect(classify(c([10]), [1], 1)).toBe("none");
  });
});

describe("price change", () => {
  it("alerts at ≥5% and ≥1 unit, both required", () => {
    const alert = (a: number, b: number) => isPriceAlert(toCents(a), toCents(b));
    expect(alert(20, 21)).toBe(true); // exactly 5% and exactly 1.00
    expect(alert(20, 20.99)).toBe(false); // 4.95%, 0.99
    expect(alert(10, 10.99)).toBe(false); // 9.9% but under 1 unit
    expect(alert(100, 104)).toBe(false); // 4 units but 4%
    expect(alert(100, 95)).toBe(true); // decreases count too
    expect(alert(19.99, 20.99)).toBe(true); // 1.00 and 5.0025%
  });

  it("latest amount against the most common earlier amount, since the month the new price started", () => {
    const a = [15.99, 15.99, 15.99, 17.99, 0, 17.99];
    expect(priceChange(M6, c(a), countsOf(a))).toEqual({
      old_amount: 1599,
      new_amount: 1799,
      since_month: "2024-04",
    });
  });

  it("needs a baseline held in 2+ months", () => {
    const a = [0, 0, 0, 10, 0, 20];
    expect(priceChange(M6, c(a), countsOf(a))).toBeNull();
    const varied = [42.5, 38, 0, 51, 0, 47];
    expect(priceChange(M6, c(varied), countsOf(varied))).toBeNull();
  });

  it("no alert when the latest amount is within the thresholds or unchanged", () => {
    const a = [10, 10, 10, 10, 10, 10.4];
    expect(priceChange(M6, c(a), countsOf(a))).toBeNull();
    const same = [10, 10, 10, 10, 10, 10];
    expect(priceChange(M6, c(same), countsOf(same))).toBeNull();
  });
});

describe("new and churned", () => {
  it("new: first seen in the last month only", () => {
    expect(isNew([0, 0, 0, 0, 0, 2])).toBe(true);
    expect(isNew([0, 0, 1, 0, 0, 2])).toBe(false);
    expect(isNew([0, 0, 0, 0, 1, 0])).toBe(false);
  });

  it("churned: regular before, absent in the last 2 months", () => {
    const fixed = [10, 10, 10, 0, 0, 0];
    expect(isChurned(c(fixed), countsOf(fixed))).toBe(true);
    const varied = [5, 0, 7, 9, 0, 0];
    expect(isChurned(c(varied), countsOf(varied))).toBe(true); // 3 of 4 earlier months
    const recent = [10, 10, 10, 10, 0, 10];
    expect(isChurned(c(recent), countsOf(recent))).toBe(false);
    const sparse = [5, 0, 0, 9, 0, 0];
    expect(isChurned(c(sparse), countsOf(sparse))).toBe(false);
    expect(isChurned(c([10, 10, 0, 0]), [1, 1, 0, 0])).toBe(false); // too short to be regular
  });
});

describe("records and summary", () => {
  const series = (company: string, amounts: number[]) => ({
    company,
    category: "subscriptions",
    amounts: c(amounts),
    counts: countsOf(amounts),
  });

  it("a churned fixed merchant is not recurring and commits nothing", () => {
    const r = merchantRecord(series("Gym", [30, 30, 30, 30, 0, 0]), M6);
    expect(r).toMatchObject({
      frequency_type: "fixed",
      is_churned: true,
      is_recurring: false,
      months_active: 4,
    });
  });

  it("burn rate: each recurring merchant's usual charge times its occurrences a month; discretionary is the rest", () => {
    // Netflix monthly on the 15th (new price 17.99), a phone bill monthly, a weekly class; a café
    // four months of six on irregular days is not a commitment, nor is a grocery store.
    const monthly = (amounts: number[], dom = 15) =>
      amounts.flatMap((a, i) =>
        a > 0 ? [{ day: dayOf(`${M6[i]}-${String(dom).padStart(2, "0")}`), cents: toCents(a) }] : [],
      );
    const weekly = Array.from({ length: 26 }, (_, i) => ({
      day: dayOf("2024-01-06") + 7 * i,
      cents: toCents(12),
    }));
    const out = intelligenceOut(
      analyze(
        [
          {
            ...series("Netflix", [15.99, 15.99, 15.99, 17.99, 17.99, 17.99]),
            charges: monthly([15.99, 15.99, 15.99, 17.99, 17.99, 17.99]),
          },
          {
            ...series("Cafe", [40, 0, 50, 60, 0, 50]),
            charges: [3, 20, 64, 94, 180].map((d, i) => ({
              day: dayOf("2024-01-01") + d,
              cents: toCents([20, 20, 50, 60, 50][i]!),
            })),
          },
          { ...series("Phone", [55, 55, 55, 55, 55, 55]), charges: monthly([55, 55, 55, 55, 55, 55], 2) },
          { ...series("Yoga", [48, 48, 60, 48, 48, 60]), charges: weekly },
          { ...series("New Shop", [0, 0, 0, 0, 0, 12]), charges: monthly([0, 0, 0, 0, 0, 12]) },
          { ...series("Old Gym", [30, 30, 30, 30, 0, 0]), charges: monthly([30, 30, 30, 30, 0, 0], 1) },
        ],
        M6,
        toCents(200),
        dayOf("2024-06-30"),
      ),
    );
    const by = Object.fromEntries(out.merchants.map((m) => [m.company, m]));
    expect(by.Netflix).toMatchObject({ is_recurring: true, cadence: "monthly", usual_charge: 17.99 });
    expect(by.Phone).toMatchObject({ is_recurring: true, cadence: "monthly", usual_charge: 55 });
    expect(by.Yoga).toMatchObject({ is_recurring: true, cadence: "weekly", usual_charge: 12 });
    expect(by.Cafe).toMatchObject({
      is_recurring: false,
      cadence: null,
      usual_charge: null,
      frequency_type: "variable",
    });
    expect(by["Old Gym"]).toMatchObject({ is_recurring: false, is_churned: true });
    // 17.99 + 55 + 12 × 52 / 12 (52.00)
    expect(out.summary).toEqual({
      recurring_burn_rate: 124.99,
      recurring_count: 3,
      discretionary_this_month: 75.01,
      new_merchants: ["New Shop"],
      churned_merchants: ["Old Gym"],
      price_changes: [{ merchant: "Netflix", old_amount: 15.99, new_amount: 17.99, since_month: "2024-04" }],
    });
    const phone = {
      ...series("Phone", [55, 55, 55, 55, 55, 55]),
      charges: monthly([55, 55, 55, 55, 55, 55], 2),
    };
    expect(analyze([phone], M6, toCents(20), dayOf("2024-06-30")).summary.discretionary_this_month).toBe(0);
    // merchant records leave in decimal too
    expect(by.Cafe).toMatchObject({ total: 200, avg_amount: 50, monthly_amounts: [40, 0, 50, 60, 0, 50] });
  });
});
