import { domainRouter } from "../../http/route";
import { GetObjectBackupStatus, TestModelKey, TestObjectBackup } from "./routes/checks";
import { DisconnectVendor, GetVendorLoginStatus, StartVendorLogin } from "./routes/vendor";

export function intelligenceRouter() {
  const r = domainRouter();
  r.post("/test-model-key", TestModelKey);
  r.post("/test-object-backup", TestObjectBackup);
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
