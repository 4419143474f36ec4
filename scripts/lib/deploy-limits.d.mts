export declare const LIMITS: {
  gzipBytes: number;
  gzipBytesPaid: number;
  rawBytes: number;
  startupMs: number;
  crons: number;
  cronsFree: number;
  vars: number;
  varsFree: number;
};
export declare const PAID_KINDS: string[];
export interface DeployMeasures {
  gzipBytes: number;
  rawBytes: number;
  startupMs: number | null;
  startupHow?: string;
  crons: number;
  bindingKinds: string[];
  bindingCount: number;
  varsCount: number;
  compatibilityDate: string | undefined;
  today: string;
}
export declare function checkDeploy(m: DeployMeasures): { ok: boolean; lines: string[] };
export declare function activeMs(profile: {
  nodes: Array<{ id: number; callFrame: { functionName: string } }>;
  samples: number[];
  timeDeltas: number[];
}): number;
