// Drop or choose a statement file; shows the upload's progress and hands back the parsed result.
import { useState } from "react";
import { ChooseFile, DropZone } from "../../components/DropZone";
import { api, unwrap } from "../../api/client";
import { hasCode } from "../../api/errors";
import { ErrorNotice, Spinner } from "../../components/States";
import { useAction } from "../../components/useAction";
import type { UploadResponse } from "./types";

/** A CSV whose header was refused is kept: its review opens on the mapping form. */
async function unwrapKept(call: Parameters<typeof unwrap<UploadResponse>>[0]) {
  try {
    return await unwrap(call);
  } catch (err) {
    const id = hasCode(err, "CSV_MAPPING_NEEDED") ? err.details?.statement_id : null;
    if (typeof id === "string") return { statement_id: id, other_statements: [] };
    throw err;
  }
}

export function UploadBox({
  canWrite,
  onUploaded,
}: {
  canWrite: boolean;
  /** The statement to open: the uploaded one, or a CSV kept for its columns to be chosen. */
  onUploaded: (r: Pick<UploadResponse, "statement_id"> & Partial<UploadResponse>) => void;
}) {
  const [name, setName] = useState<string | null>(null);
  const { busy, error, run } = useAction();

  const upload = (file: File | undefined) => {
    if (!file || !canWrite) return;
    setName(file.name);
    run(async () => {
      const res = await unwrapKept(
        api.POST("/api/v1/statements/upload", {
          body: { file: file as unknown as string },
          bodySerializer: (body) => {
            const fd = new FormData();
            fd.append("file", body.file as unknown as Blob, file.name);
            return fd;
          },
        }),
      );
      onUploaded(res);
    });
  };
  return (
    <>
      <DropZone
        testId="statement-dropzone"
        label="Drop zone for a statement file"
        busy={busy}
        onFiles={(files) => upload(files[0])}
        enabled={canWrite}
      >
        <p className="dropzone-title">
          {busy
            ? `Reading ${name ?? "the statement"}…`
            : "Drop a statement here (PDF, CSV, OFX, QFX, QIF, CAMT.053 XML or MT940)"}
        </p>
        {busy && (
          <p role="status" className="muted small">
            <Spinner /> Uploading, parsing and matching against your journal
          </p>
        )}
        <ChooseFile
          accept=".pdf,.csv,.tsv,.txt,.ofx,.qfx,.qif,.xml,.sta,.mt940,.940,application/pdf,text/csv,application/xml"
          label="Statement file"
          testId="statement-input"
          disabled={!canWrite || busy}
          onFile={upload}
        >
          Choose a file
        </ChooseFile>
        {!canWrite && <p className="muted small">Uploading is turned off in the read-only demo.</p>}
      </DropZone>
      <ErrorNotice error={error} />
    </>
  );
}
