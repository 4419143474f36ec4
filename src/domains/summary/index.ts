import { domainRouter } from "../../http/route";
import { GetMonthlySummary, GetSpendingTrend } from "./routes/summary";

export function summaryRouter() {
  const r = domainRouter();
  r.get("/", GetMonthlySummary);
  r.get("/trend", GetSpendingTrend);
  return r;
}
