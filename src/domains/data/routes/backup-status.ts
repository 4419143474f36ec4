import { domainRoute, json, route } from "../../../http/route";
import { ObjectBackupStatusResponse } from "../../config/checks-schemas";
import { objectBackupStatus } from "../../config/checks";

const DataRoute = domainRoute("data");

/** GET /api/v1/data/object-backup-status: the daily backup's settings and what the bucket holds. */
export const GetObjectBackupStatus = route(DataRoute, {
  operationId: "getObjectBackupStatus",
  summary: "Daily backup settings and what the bucket holds",
  responses: { "200": json("Status", ObjectBackupStatusResponse) },
  handle: async (ctx) => objectBackupStatus(ctx),
});
