// A zip that downloads at once, or (the server answers 202) is built in steps: its progress is
// polled, and the zip downloads once done (also after a reload while it was building).
import { unwrap } from "../api/client";
import { usePolledStatus } from "../pages/insights/usePolledStatus";
import { saveBlob } from "../lib/download";
import { useAction } from "./useAction";

/** A blob answer (openapi-fetch's shape with `parseAs: "blob"`). */
type BlobAnswer = { data?: unknown; error?: unknown; response: Response };
type Build = { status: string; job_id: string | null };

export function useZipBuild<B extends Build>(o: {
  /** The latest build's status. */
  load: () => Promise<B>;
  /** A finished build's zip. */
  fetchBuilt: (jobId: string) => Promise<BlobAnswer>;
  /** The file name when the answer names none. */
  fallback: (b?: B) => string;
  /** The toast once downloaded. */
  done: string;
}) {
  const download = useAction();
  const save = async (r: BlobAnswer, b?: B) =>
    saveBlob(
      (await unwrap(Promise.resolve(r))) as Blob,
      r.response.headers.get("content-disposition"),
      o.fallback(b),
    );
  const getBuilt = (b: B) =>
    download.run(async () => {
      if (b.job_id) await save(await o.fetchBuilt(b.job_id), b);
    }, o.done);
  const build = usePolledStatus(
    o.load,
    (b) => {
      if (b.status === "done") void getBuilt(b);
    },
    1500,
  );
  /** Asks for the zip: saved when it comes in the answer, its build followed on a 202. */
  const start = (fetchZip: () => Promise<BlobAnswer>) =>
    download.run(async () => {
      const r = await fetchZip();
      if (r.response.status === 202) return build.started();
      await save(r);
    }, o.done);
  return { download, build, start, getBuilt, building: build.status?.status === "running" };
}
