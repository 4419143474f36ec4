import { GetJournal, ListDaySummaries, mountSummaryJobs } from "./routes";
import { domainRouter } from "../../http/route";

export function journalRouter() {
  const r = domainRouter();
  r.get("/", GetJournal);
  r.get("/summaries", ListDaySummaries);
  mountSummaryJobs(r);
  return r;
}
