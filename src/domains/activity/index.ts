import { domainRouter } from "../../http/route";
import "./retention";
import { ListActivity } from "./routes/list-activity";
import { RevertActivity } from "./routes/revert-activity";

/** Mounted at /api/v1/activity; importing it also registers the 90-day retention cron. */
export function activityRouter() {
  const router = domainRouter();
  router.get("/", ListActivity);
  router.post("/:entry_id/revert", RevertActivity);
  return router;
}
