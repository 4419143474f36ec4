/** Income statement for a calendar year: income by company, expenses by category, net, projection. */
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { localToday } from "../../lib/local-time";
import { rangeBounds } from "../../lib/month";
import { getConfig } from "../config/service";
import { yearAggregates } from "./queries";
import { statementOut } from "./response";
import { categoryTypes, incomeStatement, monthsElapsed } from "./rules";
import type { IncomeStatementResponse } from "./schemas";

/**
 * Deposit types (e-transfer, deposit) are income; spending types are expenses, grouped into sections
 * by the year's budget category types. Deleted and ignored rows are excluded. The projection scales
 * the months begun so far (in the configured timezone) to twelve.
 */
export async function getIncomeStatement(
  ctx: ServiceCtx,
  input: { year: number },
): Promise<IncomeStatementResponse> {
  const { year } = input;
  const config = await getConfig(ctx);
  const months = Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, "0")}`);
  const { lo, hi } = rangeBounds(months[0]!, months[11]!);
  const agg = await yearAggregates(getDb(ctx.env.DB), lo, hi, year, config.user_id);
  return statementOut(
    incomeStatement({
      year,
      months,
      income: agg.income,
      expenses: agg.expenses,
      types: categoryTypes(agg.budget),
      elapsed: monthsElapsed(year, localToday(ctx.clock(), config.timezone).month),
    }),
  );
}
