// Drop or choose a statement file; shows the upload's progress and hands back the parsed result.
import { useRef, useState } from "react";
import { DropZone } from "../../components/DropZone";
import { api, unwrap } from "../../api/client";
import { ErrorNotice, Spinner } from "../../components/States";
import { useAction } from "../../components/useAction";
import type { UploadResponse } from "./types";

export function UploadBox({
  canWrite,
  onUploaded,
}: {
  canWrite: boolean;
  onUploaded: (r: UploadResponse) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState<string | null>(null);
  const { busy, error, run } = useAction();

  const upload = (file: File | undefined) => {
    if (!file || !canWrite) return;
    setName(file.name);
    run(async () => {
      const res = await unwrap(
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
          {busy ? `Reading ${name ?? "the statement"}…` : "Drop a statement here (PDF, CSV, OFX or QFX)"}
        </p>
        {busy && (
          <p role="status" className="muted small">
            <Spinner /> Uploading, parsing and matching against your journal
          </p>
        )}
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => input.current?.click()}
          disabled={!canWrite || busy}
        >
          Choose a file
        </button>
        <input
          ref={input}
          type="file"
          accept=".pdf,.csv,.ofx,.qfx,application/pdf,text/csv"
          className="sr-only"
          tabIndex={-1}
          aria-label="Statement file"
          data-testid="statement-input"
          onChange={(e) => {
            upload(e.target.files?.[0]);
            e.target.value = "";
          }}
        />
        {!canWrite && <p className="muted small">Uploading is turned off in the read-only demo.</p>}
      </DropZone>
      <ErrorNotice error={error} />
    </>
  );
}
