// The Tax page's download: a small year's zip comes in the answer; a year with many receipts is
// built in steps on the server (202), its progress shown here, and the zip downloads once done
// (also after a reload while it was building).
import { ErrorNotice } from "../../components/States";
import { StepProgress } from "../../components/StepProgress";
import { useZipBuild } from "../../components/useZipBuild";
import { megabytes, thousands } from "../../lib/download";
import { fetchBuilt, fetchExport, loadBuild } from "./api";

export function TaxDownload({ year, demo }: { year: number; demo: boolean }) {
  const { download, build, start, building } = useZipBuild({
    load: loadBuild,
    fetchBuilt,
    fallback: (b) => `tax-pack-${b?.year ?? year}.zip`,
    done: "Tax pack downloaded",
  });
  const b = build.status;
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
        onClick={() => start(() => fetchExport(year))}
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
