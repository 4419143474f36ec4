import { domainRouter } from "../../http/route";
import { GetInsightsContext } from "./routes/context";
import { GenerateInsights, GetInsightsStatus } from "./routes/generate";
import { GetSavedInsight, ListSavedInsights } from "./routes/saved";

export function insightsRouter() {
  const r = domainRouter();
  r.get("/context", GetInsightsContext);
  r.post("/generate", GenerateInsights);
  r.get("/status", GetInsightsStatus);
  r.get("/saved", ListSavedInsights);
  r.get("/saved/:insight_id", GetSavedInsight);
  return r;
}
