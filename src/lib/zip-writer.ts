/**
 * THE streaming zip writer (the data export and the tax pack): entries go into fflate's Zip and its
 * output is drained into the response stream after every piece, waiting on the stream, so neither
 * a table nor a stored file is ever held whole. A zip error is thrown at the next flush.
 */
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";

const enc = new TextEncoder();

/** Deflate level 0–9, or "store" (no compression, for files already compressed). */
export type ZipLevel = 0 | 6 | 9 | "store";

export class ZipWriter {
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly zip: Zip;
  private readonly pending: Uint8Array[] = [];
  private failed: unknown = null;

  constructor(writable: WritableStream<Uint8Array>) {
    this.writer = writable.getWriter();
    this.zip = new Zip((err, chunk) => {
      if (err) this.failed = err;
      else this.pending.push(chunk);
    });
  }

  /** Drains what the zip produced so far into the stream. */
  async flush(): Promise<void> {
    if (this.failed) throw this.failed;
    while (this.pending.length) {
      await this.writer.ready;
      await this.writer.write(this.pending.shift()!);
    }
  }

  /** An entry written piece by piece: `push` each chunk (flushed as it goes), then `end`. */
  entry(path: string, level: ZipLevel = 6) {
    const file = level === "store" ? new ZipPassThrough(path) : new ZipDeflate(path, { level });
    this.zip.add(file);
    return {
      /** Adds a chunk without draining (call `flush` after a batch of them). */
      add: (chunk: Uint8Array | string) => {
        file.push(typeof chunk === "string" ? enc.encode(chunk) : chunk);
      },
      push: async (chunk: Uint8Array | string) => {
        file.push(typeof chunk === "string" ? enc.encode(chunk) : chunk);
        await this.flush();
      },
      end: async (last?: string) => {
        file.push(last === undefined ? new Uint8Array(0) : enc.encode(last), true);
        await this.flush();
      },
    };
  }

  /** A whole text entry. */
  async text(path: string, body: string, level: ZipLevel = 6): Promise<void> {
    await this.entry(path, level).end(body);
  }

  /** A stream (an R2 object's body) as one entry, read chunk by chunk. */
  async stream(path: string, body: ReadableStream<Uint8Array>, level: ZipLevel = 6): Promise<void> {
    const file = this.entry(path, level);
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await file.push(value);
    }
    await file.end();
  }

  /** Ends the archive and closes the stream. */
  async close(): Promise<void> {
    this.zip.end();
    await this.flush();
    await this.writer.close();
  }

  /** Aborts the stream (the reader sees a failed download, never a truncated zip as whole). */
  async abort(err: unknown): Promise<void> {
    await this.writer.abort(err).catch(() => undefined);
  }
}
