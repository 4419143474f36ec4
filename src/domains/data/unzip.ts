/**
 * Reading a zip without trusting it (fflate's streaming Unzip): only entries the caller names are
 * inflated, each up to its own cap, and every inflated byte counts against a running cap on the
 * whole archive (an absolute ceiling and a ratio to the compressed bytes read so far), so a 1 MB
 * zip that would inflate to 1 GiB is refused after a few megabytes, in well under a second.
 * The compressed input is fed in small slices, so no single step inflates more than a few MB.
 */
import { Unzip, UnzipInflate } from "fflate";
import { DomainError, TooLarge, validationError } from "../../lib/errors";

/** No backup inflates to more than this in total. */
export const MAX_INFLATED_BYTES = 1024 * 1024 * 1024;
/** Inflated bytes may run ahead of the compressed bytes read by this factor (plus SLACK). */
const MAX_RATIO = 200;
const SLACK = 16 * 1024 * 1024;
const SLICE = 16 * 1024;

const tooBig = (msg: string) => new TooLarge(msg);
const unreadable = () =>
  validationError(
    [{ loc: ["body", "file"], msg: "The file is not a readable zip archive", type: "value_error" }],
    "The file is not a readable zip archive",
  );

/**
 * Streams `source` through the unzipper. `capOf(name)` is the entry's byte cap, or null to leave it
 * compressed; `onEntry` receives each wanted entry once complete (awaited before reading further).
 */
export async function readZip(
  source: Uint8Array | ReadableStream<Uint8Array>,
  capOf: (name: string) => number | null,
  onEntry: (name: string, bytes: Uint8Array) => void | Promise<void>,
): Promise<void> {
  let read = 0;
  let inflated = 0;
  // Work an entry started that must finish before the next slice is read (file checks, R2 writes).
  const work: Promise<void>[] = [];
  // fflate hands an error thrown in a data callback back as `err`: keep ours to rethrow it.
  let refusal: unknown = null;
  const refuse = (e: unknown): never => {
    refusal = e;
    throw e;
  };
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.onfile = (file) => {
    const cap = capOf(file.name);
    const parts: Uint8Array[] = [];
    let size = 0;
    file.ondata = (err, chunk, final) => {
      if (err) throw refusal ?? unreadable();
      inflated += chunk.byteLength;
      if (inflated > MAX_INFLATED_BYTES || inflated > read * MAX_RATIO + SLACK)
        refuse(
          tooBig(
            `The zip inflates to far more than its size (over ${Math.round(inflated / 1e6)} MB from ` +
              `${Math.round(read / 1e6)} MB read): refused as a decompression bomb`,
          ),
        );
      if (cap === null) return;
      size += chunk.byteLength;
      if (size > cap)
        refuse(tooBig(`${file.name} in the zip is larger than ${Math.round(cap / 1e6)} MB once inflated`));
      parts.push(chunk);
      if (!final) return;
      // Called at once, so an entry can name what later entries of the same slice are wanted.
      try {
        const out = onEntry(file.name, concat(parts, size));
        if (out) work.push(out.catch(refuse));
      } catch (err) {
        refuse(err);
      }
    };
    if (cap !== null) file.start();
  };
  const push = async (slice: Uint8Array, final: boolean) => {
    read += slice.byteLength;
    try {
      unzip.push(slice, final);
    } catch (err) {
      throw refusal ?? (err instanceof DomainError ? err : unreadable());
    }
    for (const w of work.splice(0)) await w;
  };
  if (source instanceof Uint8Array) {
    if (source.byteLength === 0) throw unreadable();
    for (let i = 0; i < source.byteLength; i += SLICE)
      await push(source.subarray(i, i + SLICE), i + SLICE >= source.byteLength);
    return;
  }
  const reader = source.getReader();
  let pending: Uint8Array | null = null;
  try {
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) break;
      if (pending)
        for (let i = 0; i < pending.byteLength; i += SLICE) await push(pending.subarray(i, i + SLICE), false);
      pending = value;
    }
    if (!pending) throw unreadable();
    for (let i = 0; i < pending.byteLength; i += SLICE)
      await push(pending.subarray(i, i + SLICE), i + SLICE >= pending.byteLength);
  } finally {
    reader.releaseLock();
  }
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
