import {
  GetObjectBackupStatus,
  DownloadFullBackup,
  ExportFullBackup,
  DownloadBackupBuild,
  GetBackupBuild,
  StartBackupBuild,
  CommitBackupImport,
  GetRestoreFiles,
  PreviewBackupImport,
} from "./routes";
import { domainRouter } from "../../http/route";

export function dataRouter() {
  const r = domainRouter();
  r.get("/export", DownloadFullBackup);
  r.post("/export", ExportFullBackup);
  r.post("/export/jobs", StartBackupBuild);
  r.get("/export/jobs/current", GetBackupBuild);
  r.get("/export/jobs/:job_id/file", DownloadBackupBuild);
  r.post("/import/preview", PreviewBackupImport);
  r.post("/import/commit", CommitBackupImport);
  r.get("/import/files/current", GetRestoreFiles);
  r.get("/object-backup-status", GetObjectBackupStatus);
  return r;
}
