export type AlertCorpora = Record<"peers" | "world2", Record<string, string> | null>;
export declare const ALERT_CORPORA: Record<"peers" | "world2", string>;
export declare function readAlertCorpora(base?: string): AlertCorpora;
