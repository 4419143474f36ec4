// The bench's provided context (bench/lib/cpu-probe.mjs, a globalSetup): typed for inject().
declare module "vitest" {
  export interface ProvidedContext {
    /** GET → { cpu_ms }: CPU time so far of the workerd processes this vitest started. */
    cpuProbe: string;
  }
}
export {};
