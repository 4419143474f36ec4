import { domainRouter } from "../../http/route";
import type { Reverters } from "../activity/reverters";
import type { StoredConfig } from "./schemas";
import { loadSettings, restoreConfig } from "./service";
import { GetAppConfig } from "./routes/get-config";
import { PutAppConfig } from "./routes/put-config";

export function configRouter() {
  const router = domainRouter();
  router.get("/", GetAppConfig);
  router.put("/", PutAppConfig);
  return router;
}

/** Activity revert of a configuration write: the stored settings are one resource, "app". */
export const configReverters: Reverters = {
  config: {
    current: async (ctx) => loadSettings(ctx.env),
    restore: (ctx, _id, before, opts) =>
      restoreConfig(ctx, { image: (before ?? {}) as StoredConfig, journal: opts.journal }),
  },
};
