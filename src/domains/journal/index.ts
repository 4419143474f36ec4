import { domainRouter } from "../../http/route";
import { GetJournal, ListDaySummaries } from "./routes/journal";
import { mountSummaryJobs } from "./routes/summaries-generate";

export function journalRouter() {
  const r = domainRouter();
  r.get("/", GetJournal);
  r.get("/summaries", ListDaySummaries);
  mountSummaryJobs(r);
  return r;
}
