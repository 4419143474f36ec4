import { domainRouter } from "../../http/route";
import { TestModelKey, TestObjectBackup } from "./routes/checks";
import { GetAiReadiness } from "./routes/readiness";

/** Configuration checks, under /api/v1/config (the reference's test-openai / test-s3-backup). */
export function configChecksRouter() {
  const r = domainRouter();
  r.post("/test-model-key", TestModelKey);
  r.post("/test-object-backup", TestObjectBackup);
  r.get("/ai-readiness", GetAiReadiness);
  return r;
}
