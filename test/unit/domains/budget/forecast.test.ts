import { describe, expect, it } from "vitest";
import {
  type Forecast,
  type ForecastInput,
  forecastCategory as inCents,
  NO_FORECAST,
} from "../../../../src/domains/budget/forecast";
import { type Decimals, fromCentsOrNull, toCents, asCents } from "../../../../src/lib/money";

// The forecast takes and gives integer cents; the cases below are written in dollars.
function forecastCategory(f: Decimals<ForecastInput>): Decimals<Forecast> {
  const out = inCents({
    ...f,
    spent: toCents(f.spent),
    monthlyBudget: toCents(f.monthlyBudget),
    history: f.history.map((x) => ({ total: toCents(x.total), toDate: toCents(x.toDate) })),
    recurring: f.recurring.map((r) => ({ ...r, amount: toCents(r.amount) })),
  });
  return {
    ...out,
    forecast_month_total: fromCentsOrNull(out.forecast_month_total),
    forecast_lower: fromCentsOrNull(out.forecast_lower),
    forecast_upper: fromCentsOrNull(out.forecast_upper),
  };
}

const base: Decimals<ForecastInput> = {
  type: "variable",
  day: 15,
  daysInMonth: 30,
  spent: 150,
  count: 4,
  history: [],
  recurring: [],
  monthlyBudget: 0,
};
const h = (...pairs: [number, number][]) => pairs.map(([total, toDate]) => ({ total, toDate }));

describe("forecastCategory", () => {
  it("lumpy categories are not forecast", () => {
    expect(forecastCategory({ ...base, type: "lumpy", history: h([1, 1], [2, 2], [3, 3]) })).toEqual(
      NO_FORECAST,
    );
  });

  it("forecast: spent + P50 of what prior months still spent after today's day; P25/P75 bounds", () => {
    // remaining after day 15: 200, 200, 400 → P25 200, P50 200, P75 300
    const f = forecastCategory({ ...base, history: h([300, 100], [400, 200], [500, 100]) });
    expect(f).toEqual({
      forecast_month_total: 350,
      forecast_lower: 350,
      forecast_upper: 450,
      forecast_pct: null,
      forecast_quality: "forecast",
    });
  });

  it("historical early in the month: max(spent, trailing mean), bounds from P25/P75 of month totals", () => {
    const f = forecastCategory({
      ...base,
      day: 5,
      spent: 50,
      monthlyBudget: 500,
      history: h([100, 0], [200, 0], [300, 0], [400, 0]),
    });
    // mean 250; P25 of 100..400 = 175, P75 = 325
    expect(f).toMatchObject({
      forecast_month_total: 250,
      forecast_lower: 175,
      forecast_upper: 325,
      forecast_pct: 50,
      forecast_quality: "historical",
    });
    const over = forecastCategory({
      ...base,
      day: 5,
      spent: 350,
      history: h([100, 0], [200, 0], [300, 0], [400, 0]),
    });
    expect(over).toMatchObject({ forecast_month_total: 350, forecast_lower: 350, forecast_upper: 350 });
  });

  it("historical with fewer than 2 transactions so far, even late in the month", () => {
    const f = forecastCategory({
      ...base,
      day: 20,
      count: 1,
      spent: 1000,
      history: h([1000, 1000], [1000, 1000]),
    });
    expect(f).toMatchObject({ forecast_month_total: 1000, forecast_quality: "historical" });
  });

  it("limited: under 2 history months → linear extrapolation, bounds null", () => {
    const f = forecastCategory({
      ...base,
      day: 10,
      daysInMonth: 31,
      spent: 50,
      monthlyBudget: 100,
      history: h([80, 20]),
    });
    expect(f).toEqual({
      forecast_month_total: 155,
      forecast_lower: null,
      forecast_upper: null,
      forecast_pct: 155,
      forecast_quality: "limited",
    });
    expect(forecastCategory({ ...base, history: [] }).forecast_quality).toBe("limited");
  });

  it("committed: recurring >= 70% of the trailing mean → spent + pending recurring + everyday remainder", () => {
    // mean 100, recurring 80 + 10 = 90; pending 10; everyday (100 - 90) x 20/30 = 6.67
    const f = forecastCategory({
      ...base,
      day: 10,
      spent: 80,
      monthlyBudget: 100,
      history: h([100, 80], [100, 80], [100, 80]),
      recurring: [
        { amount: 80, arrived: true },
        { amount: 10, arrived: false },
      ],
    });
    expect(f).toEqual({
      forecast_month_total: 96.67,
      forecast_lower: null,
      forecast_upper: null,
      forecast_pct: 96.7,
      forecast_quality: "committed",
    });
    // in cents: rounded to the cent
    expect(
      inCents({
        ...base,
        day: 10,
        spent: asCents(8000),
        monthlyBudget: asCents(10_000),
        history: h([10_000, 8000], [10_000, 8000], [10_000, 8000]).map((x) => ({
          total: asCents(x.total),
          toDate: asCents(x.toDate),
        })),
        recurring: [
          { amount: asCents(8000), arrived: true },
          { amount: asCents(1000), arrived: false },
        ],
      }).forecast_month_total,
    ).toBe(9667);
  });

  it("committed needs 3 history months and the 70% share", () => {
    const two = forecastCategory({
      ...base,
      history: h([100, 50], [100, 50]),
      recurring: [{ amount: 100, arrived: true }],
    });
    expect(two.forecast_quality).toBe("forecast");
    // recurring 69 of a mean of 100: below 70%
    const low = forecastCategory({
      ...base,
      history: h([100, 50], [100, 50], [100, 50]),
      recurring: [{ amount: 69, arrived: true }],
    });
    expect(low.forecast_quality).toBe("forecast");
  });
});
