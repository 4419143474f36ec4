import { domainRouter } from "../../http/route";
import { GetJournal, ListDaySummaries } from "./routes/journal";

export function journalRouter() {
  const r = domainRouter();
  r.get("/", GetJournal);
  r.get("/summaries", ListDaySummaries);
  return r;
}
