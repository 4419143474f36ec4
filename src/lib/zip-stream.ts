/**
 * A zip written into a WritableStream as it is built (fflate's streaming Zip): the one zip writer of
 * the backup and the tax pack. Memory holds what fflate produced since the last flush (a page of
 * rows or one chunk of one file); every flush waits for the stream's backpressure.
 */
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";

const enc = new TextEncoder();

/** One entry written in parts: `push` buffers, `flush` drains to the stream, `end` closes the entry. */
export interface ZipEntryWriter {
  push(bytes: Uint8Array | string): void;
  flush(): Promise<void>;
  end(): Promise<void>;
}

export interface ZipStream {
  /** An entry written in parts; level 0 stores the bytes as they are (images, PDFs), 6 deflates. */
  entry(path: string, level: 0 | 6): ZipEntryWriter;
  /** A whole text entry, deflated. */
  text(path: string, body: string): Promise<void>;
  /** A stream's bytes as one entry, chunk by chunk. */
  stream(path: string, body: ReadableStream<Uint8Array>, level: 0 | 6): Promise<void>;
  /** Writes the central directory and closes the stream. */
  close(): Promise<void>;
  /** Aborts the stream: its reader sees an error instead of a short archive. */
  abort(err: unknown): Promise<void>;
}

export function zipStream(writable: WritableStream<Uint8Array>): ZipStream {
  const writer = writable.getWriter();
  const pending: Uint8Array[] = [];
  let failed: unknown = null;
  const zip = new Zip((err, chunk) => {
    if (err) failed = err;
    else pending.push(chunk);
  });
  const flush = async () => {
    if (failed) throw failed;
    while (pending.length) {
      await writer.ready;
      await writer.write(pending.shift()!);
    }
  };
  const entry = (path: string, level: 0 | 6): ZipEntryWriter => {
    const file = level === 0 ? new ZipPassThrough(path) : new ZipDeflate(path, { level });
    zip.add(file);
    return {
      push: (bytes) => file.push(typeof bytes === "string" ? enc.encode(bytes) : bytes),
      flush,
      end: async () => {
        file.push(new Uint8Array(0), true);
        await flush();
      },
    };
  };
  return {
    entry,
    async text(path, body) {
      const e = entry(path, 6);
      e.push(body);
      await e.end();
    },
    async stream(path, body, level) {
      const e = entry(path, level);
      const reader = body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        e.push(value);
        await flush();
      }
      await e.end();
    },
    async close() {
      zip.end();
      await flush();
      await writer.close();
    },
    abort: (err) => writer.abort(err).catch(() => undefined),
  };
}
