import { ListActivity, RevertActivity } from "./routes";
import { domainRouter } from "../../http/route";

/** Mounted at /api/v1/activity (the 90-day retention is listed in src/jobs/schedule.ts). */
export function activityRouter() {
  const router = domainRouter();
  router.get("/", ListActivity);
  router.post("/:entry_id/revert", RevertActivity);
  return router;
}
