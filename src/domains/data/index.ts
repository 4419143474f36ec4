import { domainRouter } from "../../http/route";
import { GetObjectBackupStatus } from "./routes/backup-status";
import { DownloadFullBackup, ExportFullBackup } from "./routes/export";
import { DownloadBackupBuild, GetBackupBuild, StartBackupBuild } from "./routes/export-jobs";
import { CommitBackupImport, GetRestoreFiles, PreviewBackupImport } from "./routes/import";

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
