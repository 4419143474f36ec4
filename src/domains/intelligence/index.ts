import { domainRouter } from "../../http/route";
import { GetObjectBackupStatus, TestModelKey, TestObjectBackup } from "./routes/checks";
import { DisconnectVendor, GetVendorLoginStatus, StartVendorLogin } from "./routes/vendor";

/** Configuration checks, under /api/v1/config (the reference's test-openai / test-s3-backup). */
export function configChecksRouter() {
  const r = domainRouter();
  r.post("/test-model-key", TestModelKey);
  r.post("/test-object-backup", TestObjectBackup);
  return r;
}

/** The object backup's status, under /api/v1/data (the reference's s3-backup-status). */
export function dataChecksRouter() {
  const r = domainRouter();
  r.get("/object-backup-status", GetObjectBackupStatus);
  return r;
}

/** The vendor account connection, under /api/v1/auth/vendor (the reference's auth routes). */
export function vendorAuthRouter() {
  const r = domainRouter();
  r.post("/start", StartVendorLogin);
  r.get("/status", GetVendorLoginStatus);
  r.post("/disconnect", DisconnectVendor);
  return r;
}
