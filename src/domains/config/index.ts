import { GetAppConfig, PutAppConfig, TestModelKey, TestObjectBackup, GetAiReadiness } from "./routes";
import { domainRouter } from "../../http/route";
import { type Reverters, typedReverter } from "../activity/reverters";
import { StoredConfig } from "./schemas";
import { loadSettings, restoreConfig } from "./service";

export function configRouter() {
  const router = domainRouter();
  router.get("/", GetAppConfig);
  router.put("/", PutAppConfig);
  // The configuration checks (the reference's test-openai / test-s3-backup) and the AI readiness.
  router.post("/test-model-key", TestModelKey);
  router.post("/test-object-backup", TestObjectBackup);
  router.get("/ai-readiness", GetAiReadiness);
  return router;
}

/**
 * Activity revert of a configuration write: the stored settings are one resource, "app"; its
 * images are stored settings documents (a first write's `{}` reads as the defaults).
 */
export const configReverters: Reverters = {
  config: typedReverter(StoredConfig, {
    current: async (ctx) => loadSettings(ctx),
    restore: (ctx, _id, before, opts) => restoreConfig(ctx, { image: before, journal: opts.journal }),
  }),
};
