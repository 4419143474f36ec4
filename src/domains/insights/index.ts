import {
  GetInsightsContext,
  GenerateInsights,
  GetInsightsStatus,
  GetSavedInsight,
  ListSavedInsights,
} from "./routes";
import { domainRouter } from "../../http/route";

export function insightsRouter() {
  const r = domainRouter();
  r.get("/context", GetInsightsContext);
  r.post("/generate", GenerateInsights);
  r.get("/status", GetInsightsStatus);
  r.get("/saved", ListSavedInsights);
  r.get("/saved/:insight_id", GetSavedInsight);
  return r;
}
