// What the backup and tax-pack memory benches share: incompressible file bodies streamed in chunks
// (nothing held whole), and a sink that counts the zip's bytes and the process's peak memory.

/** `size` bytes of pseudo-random (incompressible) data, `chunk` bytes at a time. */
export function randomBody(size, chunk) {
  let left = size;
  let seed = 7;
  return new ReadableStream({
    pull(c) {
      if (left <= 0) return c.close();
      const n = Math.min(chunk, left);
      const b = new Uint8Array(n);
      for (let j = 0; j < n; j++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        b[j] = seed >>> 24;
      }
      left -= n;
      c.enqueue(b);
    },
  });
}

const mem = () => process.memoryUsage();
const mb = (n) => (n / 1024 / 1024).toFixed(1);

/**
 * Runs `write(sink)` with a sink that counts bytes and samples memory on every chunk; prints the
 * first line (`headline(zipMB, seconds)`), the baseline and the peak; returns the zip's byte count.
 */
export async function measureZip(write, headline) {
  globalThis.gc?.();
  const base = mem();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed + base.arrayBuffers;
  let bytes = 0;
  const sink = new WritableStream({
    write(chunk) {
      bytes += chunk.byteLength;
      const m = mem();
      if (m.rss > peakRss) peakRss = m.rss;
      if (m.heapUsed + m.arrayBuffers > peakHeap) peakHeap = m.heapUsed + m.arrayBuffers;
    },
  });
  const t0 = performance.now();
  await write(sink);
  const ms = performance.now() - t0;
  console.log(headline(mb(bytes), (ms / 1000).toFixed(1)));
  console.log(`  baseline rss ${mb(base.rss)} MB, heap+buffers ${mb(base.heapUsed + base.arrayBuffers)} MB`);
  console.log(
    `  peak     rss ${mb(peakRss)} MB (+${mb(peakRss - base.rss)}), heap+buffers ${mb(peakHeap)} MB (+${mb(peakHeap - base.heapUsed - base.arrayBuffers)})`,
  );
  return bytes;
}

/** esbuild plugin: `cloudflare:*` imports become stubs (the bundled export runs in node). */
export const cloudflareStub = {
  name: "cloudflare-stub",
  setup(b) {
    b.onResolve({ filter: /^cloudflare:/ }, (a) => ({ path: a.path, namespace: "cf-stub" }));
    b.onLoad({ filter: /.*/, namespace: "cf-stub" }, () => ({ contents: "export class DurableObject {}" }));
  },
};
