// The Tax page's download: a small year's zip comes in the answer; a year with many receipts is
// built in steps on the server (202), its progress shown here, and the zip downloads once done
// (also after a reload while it was building).
import { unwrap } from "../../api/client";
import { ErrorNotice } from "../../components/States";
import { StepProgress } from "../../components/StepProgress";
import { useAction } from "../../components/useAction";
import { megabytes, saveBlob, thousands } from "../../lib/download";
import { usePolledStatus } from "../insights/usePolledStatus";
import { fetchBuilt, fetchExport, loadBuild, type TaxBuild } from "./api";

type Got = Awaited<ReturnType<typeof fetchBuilt>>;

export function TaxDownload({ year, demo }: { year: number; demo: boolean }) {
  const download = useAction();
  const save = async (r: Got, fallback: string) =>
    saveBlob(
      (await unwrap(Promise.resolve(r))) as Blob,
      r.response.headers.get("content-disposition"),
      fallback,
    );
  const getBuilt = (b: TaxBuild) =>
    download.run(async () => {
      if (b.job_id) await save(await fetchBuilt(b.job_id), `tax-pack-${b.year ?? year}.zip`);
    }, "Tax pack downloaded");
  const build = usePolledStatus(
    loadBuild,
    (b) => {
      if (b.status === "done") void getBuilt(b);
    },
    1500,
  );
  const start = () =>
    download.run(async () => {
      const r = await fetchExport(year);
      if (r.response.status === 202) return build.started();
      await save(r as Got, `tax-pack-${year}.zip`);
    }, "Tax pack downloaded");
  const b = build.status;
  const building = b?.status === "running";
  if (demo)
    return (
      <button type="button" className="btn" disabled title="Turned off in the demo">
        Download tax pack
      </button>
    );
  return (
    <div className="tax-download">
      <button
        type="button"
        className="btn btn-primary"
        onClick={start}
        disabled={download.busy || building}
        data-testid="tax-download"
      >
        {download.busy ? "Preparing…" : building ? "Building the tax pack…" : "Download tax pack"}
      </button>
      <ErrorNotice error={download.error} />
      {b && (
        <StepProgress
          run={b}
          testId="tax-progress"
          label="Building the tax pack"
          max={b.files_total}
          value={b.files_done}
          failed="The tax pack could not be built"
          why="Many receipts are packed in steps; the zip downloads here when done."
        >
          Building the {b.year} tax pack: {thousands(b.files_done)} of {thousands(b.files_total)} evidence
          files ({megabytes(b.bytes)} so far).
        </StepProgress>
      )}
      {b?.status === "done" && b.missing > 0 && (
        <p className="small muted">{b.missing} evidence files were no longer stored and are left out.</p>
      )}
    </div>
  );
}
