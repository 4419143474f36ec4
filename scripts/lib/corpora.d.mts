export type AlertCorpora = Record<"peers" | "world2", Record<string, string> | null>;
export declare const ALERT_CORPORA: Record<"peers" | "world2", string>;
export declare function readAlertCorpora(base?: string): AlertCorpora;
/** Tidings' reference files by path (text as text, PDFs as base64), or null where absent. */
export type TidingsFiles = Record<string, string> | null;
export declare const TIDINGS_ABSENT: string;
export declare function readTidings(dir?: string): TidingsFiles;
