import { GetMonthlySummary, GetSpendingTrend } from "./routes";
import { domainRouter } from "../../http/route";

export function summaryRouter() {
  const r = domainRouter();
  r.get("/", GetMonthlySummary);
  r.get("/trend", GetSpendingTrend);
  return r;
}
