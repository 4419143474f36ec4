import { useApp } from "./app";
import { currentMonth, isMonth } from "./format";
import { navigate, useLocation } from "./router";

/** The page's month: ?month=YYYY-MM, or this month in the configured time zone. */
export function useMonthParam(): { month: string; thisMonth: string; setMonth: (m: string) => void } {
  const { config } = useApp();
  const { path, query } = useLocation();
  const thisMonth = currentMonth(config.timezone);
  const q = query.get("month");
  const month = isMonth(q) ? q : thisMonth;
  const setMonth = (m: string) => {
    const next = new URLSearchParams(query);
    if (m === thisMonth) next.delete("month");
    else next.set("month", m);
    const s = next.toString();
    navigate(path + (s ? `?${s}` : ""));
  };
  return { month, thisMonth, setMonth };
}
