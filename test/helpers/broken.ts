/** A D1 stand-in whose every call fails, to drive the unexpected-error and fallback paths. */
export const brokenDb = {
  prepare() {
    throw new Error("D1_ERROR: simulated outage at /secret/path.ts:42");
  },
  batch() {
    throw new Error("D1_ERROR: simulated outage");
  },
} as unknown as D1Database;
